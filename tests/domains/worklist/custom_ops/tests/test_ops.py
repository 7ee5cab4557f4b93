import torch


def test_silu_mul():
    x = torch.randn(4, 8)
    assert torch.ops.fk.silu_mul(x, x).shape == x.shape
