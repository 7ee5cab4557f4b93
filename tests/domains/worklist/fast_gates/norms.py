"""Norms with Triton fast paths and plain-torch fallbacks."""
import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def _rms_norm_kernel(x_ptr, y_ptr, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n + cols, mask=cols < n, other=0.0).to(tl.float32)
    y = x / tl.sqrt(tl.sum(x * x, 0) / n + eps)
    tl.store(y_ptr + row * n + cols, y, mask=cols < n)


def rms_norm(x, eps=1e-6):
    if not x.is_cuda or x.dim() != 2 or not x.is_contiguous():
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
    y = torch.empty_like(x)
    _rms_norm_kernel[(x.shape[0],)](x, y, x.shape[1], eps, BLOCK=triton.next_power_of_2(x.shape[1]))
    return y


def layer_norm(x, weight, bias, eps=1e-5):
    if x.device.type == "cuda" and x.dtype == torch.bfloat16:
        y = torch.empty_like(x)
        _rms_norm_kernel[(x.shape[0],)](x, y, x.shape[1], eps, BLOCK=triton.next_power_of_2(x.shape[1]))
        return y * weight + bias
    else:
        return F.layer_norm(x, x.shape[-1:], weight, bias, eps)


def fused_rms_norm(x, eps=1e-6):
    if not x.is_cuda:
        raise ValueError("fused_rms_norm needs a CUDA tensor")
    y = torch.empty_like(x)
    _rms_norm_kernel[(x.shape[0],)](x, y, x.shape[1], eps, BLOCK=triton.next_power_of_2(x.shape[1]))
    return y


def pick(x):
    if x.dim() == 3:
        return rms_norm(x.flatten(0, 1)).view_as(x)
    elif x.is_cuda:
        return fused_rms_norm(x)
    return rms_norm(x)
