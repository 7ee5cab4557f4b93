import torch
from cauchy_ext import cauchy_fwd


def test_cauchy():
    v = torch.randn(16, device="cuda")
    assert cauchy_fwd(v, v).shape == v.shape
