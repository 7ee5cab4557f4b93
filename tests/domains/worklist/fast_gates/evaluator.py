"""Evaluators whose device argument is set from the process rank."""
import torch


class Evaluator:
    def __init__(self, model, device: str = "cuda"):
        """The device argument is kept for the old call signature."""
        device = f"cuda:{torch.cuda.current_device()}"
        self.model = model.to(device)


class Sampler:
    def __init__(self, model, device="cuda"):
        print("sampling on", device)
        device = torch.device(device)
        self.model = model.to(device)


def load(path, device="cuda"):
    device = device if torch.cuda.is_available() else "cpu"
    return torch.load(path, map_location=device)
