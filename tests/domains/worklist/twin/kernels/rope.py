import torch


def apply_rope(x, cos, sin):
    if not x.is_cuda:
        raise RuntimeError("rope needs a CUDA tensor")
    return x * cos + torch.roll(x, 1, -1) * sin
