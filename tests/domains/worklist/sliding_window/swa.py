"""Sliding-window attention layers (a Mistral-style local window)."""
import torch
from flash_attn import flash_attn_func, flash_attn_varlen_func


def local_causal(q, k, v, window):
    # causal, each query sees the previous `window` keys: band mode with next = 0
    return flash_attn_func(q, k, v, causal=True, window_size=(window - 1, 0))


def local_both_sides(q, k, v):
    # 128 keys on each side, not causal
    return flash_attn_func(q, k, v, window_size=(128, 128))


def local_varlen(q, k, v, cu, n, window):
    # a window held in a variable: its sides may be -1 (unbounded)
    return flash_attn_varlen_func(q, k, v, cu, cu, n, n, causal=True, window_size=window)


def full(q, k, v):
    return flash_attn_func(q, k, v, causal=True, window_size=(-1, -1))
