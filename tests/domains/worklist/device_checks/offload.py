"""Offloading of a diffusion pipeline's transformer between denoising runs."""
import torch


class OffloadingPipeline:
    def __init__(self, transformer, device):
        self.transformer = transformer
        self._execution_device = device

    def __call__(self, latents, offload_to_cpu=False):
        latents = self.transformer(latents)
        if offload_to_cpu:
            self.transformer = self.transformer.cpu()
            if self._execution_device == "cuda":  # frees what the transformer held
                torch.cuda.empty_cache()
        return latents

    def wait(self, x):
        if x.device.type == "cuda":
            torch.cuda.synchronize()
        return x

    def pinned(self, x):
        if x.device.type == "cuda":
            x = x.pin_memory()
        return x
