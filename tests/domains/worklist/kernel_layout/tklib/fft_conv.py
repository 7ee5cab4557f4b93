import torch

from tklib import _C


class FlashFFTConvFunc(torch.autograd.Function):
    """An FFT convolution: "flash" here names no attention."""

    @staticmethod
    def forward(ctx, u, k):
        out = torch.empty_like(u)
        _C.butterfly_padded(u * k, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad, None


def fft_conv(u, k):
    return FlashFFTConvFunc.apply(u, k)
