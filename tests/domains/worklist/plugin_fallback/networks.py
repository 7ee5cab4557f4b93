import torch

from torch_utils.ops import bias_act


class MappingNetwork(torch.nn.Module):
    def __init__(self, dim=512):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(dim, dim))
        self.bias = torch.nn.Parameter(torch.zeros(dim))

    def forward(self, z):
        return bias_act.bias_act(z @ self.weight, self.bias, act="lrelu")
