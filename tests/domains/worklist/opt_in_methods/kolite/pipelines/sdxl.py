"""A diffusion pipeline with diffusers-style opt-in toggles."""
import torch


class Pipeline:
    def __init__(self, unet, vae):
        self.unet, self.vae = unet, vae
        self.tiling = False

    def enable_model_cpu_offload(self, gpu_id=0):
        # nothing in the project turns this on
        device = torch.device(f"cuda:{gpu_id}")
        self.unet.to("cpu")
        torch.cuda.empty_cache()
        return device

    def enable_vae_tiling(self):
        # sample.py turns this on: it runs
        self.tiling = True
        self.vae.to("cuda")

    def decode(self, latents):
        return self.vae(latents.cuda())

    def __call__(self, prompt):
        return self.decode(torch.randn(1, 4, 64, 64))
