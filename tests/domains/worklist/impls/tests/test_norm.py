import pytest
import torch

from fastops.norm import rms_norm


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_rms_norm():
    x = torch.randn(4, 8, device="cuda")
    assert rms_norm(x, torch.ones(8, device="cuda")).shape == x.shape
