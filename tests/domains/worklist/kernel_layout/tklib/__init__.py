import torch

from tklib import _C


def attention(q, k, v):
    out = torch.empty_like(q)
    _C.attention(q, k, v, out)
    return out
