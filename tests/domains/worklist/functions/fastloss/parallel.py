import torch

from fastloss import _C
from fastloss import comm


class AllReduceSum(torch.autograd.Function):
    """The package's own collectives: nothing to port in the Function."""

    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return comm.all_reduce(x.clone(), group=group)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class FusedScale(torch.autograd.Function):
    """The package's compiled extension: the Function wraps native code."""

    @staticmethod
    def forward(ctx, x, scale):
        return _C.scale_forward(x, scale)

    @staticmethod
    def backward(ctx, grad):
        return _C.scale_backward(grad), None
