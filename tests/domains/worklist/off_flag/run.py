import torch

from decoder.pipeline import build


def main():
    vae = build(streams=False)
    latents = torch.zeros(1, 4, 8, 8)
    print(vae.decode(vae.encode(latents)))


if __name__ == "__main__":
    main()
