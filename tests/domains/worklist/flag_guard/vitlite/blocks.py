import torch
import torch.nn.functional as F
from torch import nn

# optional fused kernels: each name stays None where its package is missing
flash_attn_func = memory_efficient_attention = None
try:
    from flash_attn import flash_attn_func
except ImportError:
    pass
try:
    from xformers.ops import memory_efficient_attention
except ImportError:
    pass


class SelfAttention(nn.Module):
    def __init__(self, dim, heads, flash_if_available=True):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.using_flash = flash_if_available and flash_attn_func is not None
        self.using_xform = flash_if_available and memory_efficient_attention is not None

    def forward(self, x, attn_bias=None):
        B, L, C = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, self.heads, C // self.heads).unbind(dim=2)
        using_flash = (
            self.using_flash and attn_bias is None and x.dtype != torch.float32
        )
        if using_flash:
            out = flash_attn_func(q, k, v)
        elif self.using_xform:
            out = memory_efficient_attention(q, k, v, attn_bias=attn_bias)
        else:
            out = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                                 attn_mask=attn_bias).transpose(1, 2)
        return out.reshape(B, L, C)
