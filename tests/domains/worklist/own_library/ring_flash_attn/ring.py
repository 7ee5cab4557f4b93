import torch
import torch.distributed as dist

from ring_flash_attn.utils import exchange


def ring_attention(q, k, v, group=None):
    world = dist.get_world_size(group)
    out = torch.zeros_like(q)
    for _ in range(world):
        k, v = exchange(k, v, group)
        out = out + torch.softmax(q @ k.transpose(-1, -2), dim=-1) @ v
    return out
