"""Fused norm and MLP kernels from flash-attn, with plain-torch fallbacks."""
import torch

try:
    from flash_attn.ops.rms_norm import rms_norm as rms_norm_impl
    from flash_attn.ops.fused_dense import fused_mlp_func
except ImportError:
    fused_mlp_func = None

    def rms_norm_impl(x, weight, epsilon):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + epsilon) * weight


class RMSNorm(torch.nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return rms_norm_impl(x, self.weight, epsilon=self.eps)


class FFN(torch.nn.Module):
    def __init__(self, dim, fused_mlp=False):
        super().__init__()
        self.fused_mlp_func = fused_mlp_func if fused_mlp else None
        self.fc1 = torch.nn.Linear(dim, 4 * dim)
        self.fc2 = torch.nn.Linear(4 * dim, dim)

    def forward(self, x):
        if self.fused_mlp_func is not None:
            return self.fused_mlp_func(x, self.fc1.weight, self.fc2.weight, self.fc1.bias, self.fc2.bias)
        return self.fc2(torch.nn.functional.gelu(self.fc1(x)))
