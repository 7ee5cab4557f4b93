"""Attention that picks FlashAttention-3 on Hopper when it is installed."""
import importlib.util

import torch
import torch.nn.functional as F

HAS_FA3 = importlib.util.find_spec("flash_attn_interface") is not None


def is_hopper():
    return torch.cuda.get_device_capability() == (9, 0)


def attention(q, k, v):
    if HAS_FA3 and is_hopper():
        from flash_attn_interface import flash_attn_func

        return flash_attn_func(q, k, v)
    return F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)).transpose(1, 2)
