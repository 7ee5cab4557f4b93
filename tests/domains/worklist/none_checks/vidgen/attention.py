import torch

try:
    from flash_attn import flash_attn_func, flash_attn_varlen_func
except ImportError:
    flash_attn_func = None
    flash_attn_varlen_func = None


def attention(q, k, v):
    if flash_attn_func is not None:
        return flash_attn_func(q, k, v)
    return torch.nn.functional.scaled_dot_product_attention(q, k, v)


def varlen_attention(q, k, v, cu_seqlens, max_seqlen):
    if flash_attn_varlen_func is not None:
        return flash_attn_varlen_func(q, k, v, cu_seqlens, cu_seqlens, max_seqlen, max_seqlen)
    else:
        raise NotImplementedError("varlen attention needs flash-attn")
