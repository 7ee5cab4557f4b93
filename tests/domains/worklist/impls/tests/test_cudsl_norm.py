import pytest
import torch

from fastops.cudsl.norm import rms_norm

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="cudsl needs CUDA")


def test_rms_norm():
    x = torch.randn(4, 8, device="cuda")
    assert rms_norm(x, torch.ones(8, device="cuda")).shape == x.shape
