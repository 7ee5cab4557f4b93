"""Attention blocks of an autoencoder and a transformer that fold the heads into the batch by
hand before calling xformers, so its inputs are 3-D."""
import xformers.ops
from einops import rearrange
from torch import nn


class MidAttention(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.qkv = nn.Conv2d(channels, 3 * channels, 1)

    def forward(self, h):
        q, k, v = self.qkv(h).chunk(3, dim=1)
        b, c, height, width = q.shape
        q, k, v = (t.reshape(b, c, height * width).permute(0, 2, 1).reshape(b * 1, height * width, c) for t in (q, k, v))
        out = xformers.ops.memory_efficient_attention(q, k, v, attn_bias=None)
        return out.reshape(b, height, width, c).permute(0, 3, 1, 2)


class CrossAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.to_qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (rearrange(t, "b n (h d) -> (b h) n d", h=self.heads) for t in (q, k, v))
        out = xformers.ops.memory_efficient_attention(q, k, v)
        return rearrange(out, "(b h) n d -> b n (h d)", h=self.heads)

    def forward_bsnd(self, x):
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (rearrange(t, "b n (h d) -> b n h d", h=self.heads) for t in (q, k, v))
        return xformers.ops.memory_efficient_attention(q, k, v)
