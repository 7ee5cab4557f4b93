import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function

try:
    from detr import _C
except Exception:
    warnings.warn("custom ops unavailable: deformable attention runs in PyTorch")


class DeformAttnFunction(Function):
    @staticmethod
    def forward(ctx, value, shapes, locations, weights, step):
        ctx.step = step
        out = _C.deform_attn_forward(value, shapes, locations, weights, step)
        ctx.save_for_backward(value, shapes, locations, weights)
        return out

    @staticmethod
    def backward(ctx, grad):
        value, shapes, locations, weights = ctx.saved_tensors
        return _C.deform_attn_backward(value, shapes, locations, weights, grad, ctx.step) + (None,)


def deform_attn_pytorch(value, shapes, locations, weights):
    b, _, heads, dim = value.shape
    grids = 2 * locations - 1
    sampled = []
    for level, (h, w) in enumerate(shapes):
        v = value[:, level].flatten(2).transpose(1, 2).reshape(b * heads, dim, h, w)
        sampled.append(F.grid_sample(v, grids[:, :, :, level], mode="bilinear", align_corners=False))
    return (torch.stack(sampled, dim=-2).flatten(-2) * weights).sum(-1)


class DeformAttn(nn.Module):
    def __init__(self, dim=256, heads=8):
        super().__init__()
        self.heads = heads
        self.proj = nn.Linear(dim, dim)

    def forward(self, value, shapes, locations, weights):
        if torch.cuda.is_available() and value.is_cuda:
            out = DeformAttnFunction.apply(value, shapes, locations, weights, 64)
        else:
            out = deform_attn_pytorch(value, shapes, locations, weights)
        return self.proj(out)
