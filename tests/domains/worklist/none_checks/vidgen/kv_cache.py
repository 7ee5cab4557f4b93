"""Decoding attention over a KV cache: flash-attn's kernel when present."""
import torch
import torch.nn.functional as F

try:
    from flash_attn import flash_attn_with_kvcache
except ImportError:
    flash_attn_with_kvcache = None


def decode_attention(q, k_cache, v_cache, cache_seqlens, offset):
    if offset == 0 or flash_attn_with_kvcache is None:
        k, v = k_cache[:, : offset + 1], v_cache[:, : offset + 1]
        return F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)).transpose(1, 2)
    else:
        return flash_attn_with_kvcache(q, k_cache, v_cache, cache_seqlens=cache_seqlens, causal=True)


def decode_required(q, k_cache, v_cache, cache_seqlens):
    assert flash_attn_with_kvcache is not None, "flash_attn must be installed"
    return flash_attn_with_kvcache(q, k_cache, v_cache, cache_seqlens=cache_seqlens, causal=True)
