"""Rotary embedding: the compiled kernel when it is built, else PyTorch."""
import torch

try:
    import fast_rope

    def rope(x, cos, sin):
        fast_rope.apply_rope(x, cos, sin)
        return x

except ImportError:

    def rope(x, cos, sin):
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack((a * cos - b * sin, a * sin + b * cos), -1).flatten(-2)
