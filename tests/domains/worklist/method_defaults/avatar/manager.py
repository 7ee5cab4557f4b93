import torch


class Detector:
    def load(self, path, device="cuda"):
        state = torch.load(path, map_location="cpu")
        return {k: v.to(device) for k, v in state.items()}


class ModelManager:
    def __init__(self, device="cuda"):
        self.device = device
        self.detector = Detector()

    def load_models(self, paths, device):
        return [self.detector.load(p, device=device) for p in paths]
