import torch

from .layers import FusedNorm


class MLP(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = FusedNorm(dim)
        self.up = torch.nn.Linear(dim, 2 * dim)

    def forward(self, x):
        h = self.up(self.norm(x))
        a, b = h.chunk(2, dim=-1)
        # the same op again, and a built-in collective next to it
        y = torch.ops.fk.silu_mul(a, b)
        return torch.ops._c10d_functional.all_reduce(y, "sum", "0")
