"""Attention as custom ops, so torch.compile treats each call as one node."""
import torch
from flash_attn import flash_attn_func as fa2_flash_attn_func


def register_custom_op(name, **kwargs):
    return torch.library.custom_op(name, mutates_args=(), **kwargs)


@register_custom_op("infra::flash_attn")
def flash_attn(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return fa2_flash_attn_func(q, k, v)


@torch.library.custom_op(
    "infra::sdpa", mutates_args=())
def sdpa(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.scaled_dot_product_attention(q, k, v)


def attention(q, k, v, fused=True):
    if fused:
        return torch.ops.infra.flash_attn(q, k, v)
    return torch.ops.infra.sdpa(q, k, v)


def rotary(x, cos, sin):
    return torch.ops.rope_cuda.apply(x, cos, sin)
