import pytest
import torch

from vidkit import TinyDiT


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_sample_is_finite():
    model = TinyDiT(16).eval()
    with torch.no_grad():
        assert torch.isfinite(model(torch.randn(1, 16))).all()
