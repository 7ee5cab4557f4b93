import torch
from torch import nn


class Attention(nn.Module):
    """The first attention block, kept for old checkpoints."""

    def forward(self, x):
        with torch.cuda.amp.autocast(enabled=False):
            return x.float()


class CrossAttention(nn.Module):
    def forward(self, x, ctx):
        return torch.nn.functional.scaled_dot_product_attention(x, ctx, ctx)
