import torch


class Sampler:
    def __init__(self):
        self.device = torch.device("cpu")

    def step(self, x):
        return x * 0.5
