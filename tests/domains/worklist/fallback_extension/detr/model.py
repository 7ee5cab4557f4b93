import torch.nn as nn

from .ops.count import points_per_cell
from .ops.deform_attn import DeformAttn


class Detector(nn.Module):
    def __init__(self, dim=256):
        super().__init__()
        self.attn = DeformAttn(dim)
        self.head = nn.Linear(dim, 4)

    def forward(self, value, shapes, locations, weights, cells=None):
        out = self.head(self.attn(value, shapes, locations, weights))
        if cells is not None:
            out = out / points_per_cell(cells, out.shape[1]).clamp(min=1).unsqueeze(-1)
        return out
