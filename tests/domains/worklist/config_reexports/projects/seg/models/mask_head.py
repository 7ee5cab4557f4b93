import torch
from torch import nn


class MaskHead(nn.Module):
    def __init__(self, dim=256):
        super().__init__()
        self.proj = nn.Linear(dim, 1)

    def forward(self, x):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return self.proj(x)
