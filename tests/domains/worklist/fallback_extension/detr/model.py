import torch.nn as nn

from .ops.deform_attn import DeformAttn


class Detector(nn.Module):
    def __init__(self, dim=256):
        super().__init__()
        self.attn = DeformAttn(dim)
        self.head = nn.Linear(dim, 4)

    def forward(self, value, shapes, locations, weights):
        return self.head(self.attn(value, shapes, locations, weights))
