import torch
import torch.nn as nn
from torch.utils.cpp_extension import load

T_MAX = 1024
wkv_cuda = load(name="wkv", sources=["cuda/wkv_op.cpp", "cuda/wkv_cuda.cu"], extra_cuda_cflags=[f"-DTmax={T_MAX}"])


class WKV(torch.autograd.Function):
    @staticmethod
    def forward(ctx, w, u, k, v):
        y = torch.empty_like(v)
        wkv_cuda.forward(w, u, k, v, y)
        return y


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.key = nn.Linear(dim, dim)
        self.value = nn.Linear(dim, dim)
        self.decay = nn.Parameter(torch.zeros(dim))
        self.first = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        return x + WKV.apply(self.decay, self.first, self.key(x), self.value(x))
