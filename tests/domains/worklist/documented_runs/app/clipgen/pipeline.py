import torch


class ClipPipeline:
    def __init__(self, dim=64):
        self.proj = torch.nn.Linear(dim, dim)

    def to_device(self):
        self.proj = self.proj.cuda()
        return self

    def __call__(self, x):
        return self.proj(x)
