"""Casts of hidden states back to the autocast dtype before a fused attention kernel."""
import torch


def to_autocast_dtype(hidden_states, fallback=torch.bfloat16):
    if hidden_states.dtype != torch.float32:
        return hidden_states
    if torch.is_autocast_enabled():
        target = torch.get_autocast_gpu_dtype()
    else:
        target = fallback
    return hidden_states.to(target)
