import torch

from . import _C  # noqa: F401


class FusedNorm(torch.nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return torch.ops.fk.rms_norm(x, self.weight, self.eps)


def gated(x, gate):
    return torch.ops.fk.silu_mul(x, gate)
