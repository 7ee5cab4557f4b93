"""SDPA attention as transformers writes it, with its CUDA workaround."""
import torch


def sdpa(query, key, value, mask):
    # SDPA with the memory-efficient backend is bugged with non-contiguous inputs and a custom mask
    if query.device.type == "cuda" and mask is not None:
        query = query.contiguous()
        key = key.contiguous()
        value = value.contiguous()
    return torch.nn.functional.scaled_dot_product_attention(query, key, value, attn_mask=mask)


def pinned(x):
    # not a workaround: the branch does CUDA work the NPU would skip
    if x.device.type == "cuda":
        x = x.pin_memory()
    return x
