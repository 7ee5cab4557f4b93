import torch

from vidkit.utils.harness import small_model, timed_forward


def test_forward_shape():
    y, _ = timed_forward(small_model(), torch.randn(2, 16))
    assert y.shape == (2, 16)
