"""A ViT block built on xformers' fused ops: stochastic depth with an indexed residual add, a
SwiGLU MLP and heads over a list of crops of different lengths."""
import torch
from torch import nn
from xformers.ops import SwiGLU, fmha, index_select_cat, memory_efficient_attention, scaled_index_add


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.mlp = SwiGLU(dim, 4 * dim, dim)
        self.scale = nn.Parameter(torch.ones(dim))

    def forward(self, x, q, k, v, keep):
        x = x + memory_efficient_attention(q, k, v)
        residual = self.mlp(x[keep])
        return scaled_index_add(x, keep, residual, scaling=self.scale, alpha=1.0)


def heads(head, crops, picks):
    mask, cat = fmha.BlockDiagonalMask.from_tensor_list(crops)
    flat = index_select_cat([c.flatten(0, 1) for c in crops], picks)
    return mask.split(head(cat)), flat
