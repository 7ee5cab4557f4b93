from decoder.vae import TiledVAE


def build(streams):
    vae = TiledVAE()
    vae.overlap = streams
    return vae
