"""Prefill and decode of a long-context model over a contiguous KV cache."""
import torch
from flash_attn import flash_attn_with_kvcache


@torch.inference_mode()
def prefill(q, k, v):
    # the whole prompt at once: causal, so each token sees only the keys before it
    return flash_attn_with_kvcache(q=q, k_cache=k, v_cache=v, causal=True)


@torch.inference_mode()
def decode_step(q, k_cache, v_cache, lens):
    # one new token against the cache: nothing after it to mask
    return flash_attn_with_kvcache(q, k_cache, v_cache, cache_seqlens=lens)
