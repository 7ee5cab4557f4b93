from functools import partial

import torch

import fastloss._C as _C


class ChunkedLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w, target):
        step = partial(torch.nn.functional.cross_entropy, reduction="sum")
        loss = step(x @ w.t(), target)
        ctx.save_for_backward(x, w)
        return loss

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        return grad * x, grad * w, None


def _native_loss(x, target):
    return _C.loss_forward(x, target)


class NativeLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, target):
        return _native_loss(x, target)

    @staticmethod
    def backward(ctx, grad):
        return _C.loss_backward(grad), None


def report(local_rank):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    peak = torch.cuda.max_memory_allocated(device=f"cuda:{local_rank}")
    ctx = torch.autocast("cuda", torch.bfloat16) if device == "cuda" else None
    return peak, ctx
