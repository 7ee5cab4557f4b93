import torch


class LegacySampler:
    def __init__(self):
        self.noise = torch.randn(4, device="cuda")

    def step(self, x):
        return x + self.noise
