"""Renderers: the device a caller gives, else the first accelerator."""
import torch


class Renderer:
    def __init__(self, model, device=None):
        self.model = model
        # only a caller leaving device out reaches the fallback, and none does
        self.device = device if device is not None else "cuda" if torch.cuda.is_available() else "cpu"

    def __call__(self, frames):
        return self.model(frames.to(self.device))


class Exporter:
    def __init__(self, model, device=None):
        self.model = model
        # BatchExporter(model) leaves device out: this fallback runs
        self.device = "cuda" if device is None else device

    def __call__(self, frames):
        return self.model(frames).to(self.device)
