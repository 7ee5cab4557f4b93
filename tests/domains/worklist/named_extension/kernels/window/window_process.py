import torch
import window_ops


class WindowProcess(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, shift, window):
        ctx.shift, ctx.window = shift, window
        return window_ops.roll_partition(x, shift, window)

    @staticmethod
    def backward(ctx, grad):
        return window_ops.roll_partition(grad, -ctx.shift, ctx.window), None, None
