"""The decoder's MLP and rotary embedding on vLLM's kernels, outside any vLLM engine."""
import torch
import vllm


def mlp(x, gate_up):
    h = x @ gate_up
    out = torch.empty(h.shape[:-1] + (h.shape[-1] // 2,), dtype=h.dtype, device=h.device)
    vllm._custom_ops.silu_and_mul(out, h)
    return out


def rotate(positions, q, k, cos_sin_cache):
    vllm._custom_ops.rotary_embedding(positions, q, k, 128, cos_sin_cache, True)
    return q, k
