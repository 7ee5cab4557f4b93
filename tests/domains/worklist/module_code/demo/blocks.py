import xformers.ops
from torch import nn


class CrossAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)

    def forward(self, x, cond, mask=None):
        b, n, c = x.shape
        q = self.q(x).view(1, -1, self.heads, c // self.heads)
        k, v = self.kv(cond).view(1, -1, 2, self.heads, c // self.heads).unbind(2)
        attn_bias = None
        if mask is not None:
            attn_bias = xformers.ops.fmha.BlockDiagonalMask.from_seqlens([n] * b, mask)
        out = xformers.ops.memory_efficient_attention(q, k, v, attn_bias=attn_bias)
        return out.view(b, -1, c)
