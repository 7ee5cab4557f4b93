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


class LabelEmbedder(nn.Module):
    """Class-label embedding of the first release; the text encoder replaced it."""

    def forward(self, labels):
        return torch.zeros(labels.shape[0], 8, device="cuda")


class TimestepEmbedder(nn.Module):
    def forward(self, t):
        return torch.zeros(t.shape[0], 8, device="cuda")
