import pytest
import torch

from vidkit import TinyDiT

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def test_step_runs():
    model = TinyDiT(16).to(DEVICE)
    loss = model(torch.randn(2, 16, device=DEVICE)).pow(2).mean()
    loss.backward()
    assert model.proj.weight.grad is not None


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_bf16_step():
    model = TinyDiT(16).to(DEVICE, dtype=torch.bfloat16)
    assert model(torch.randn(2, 16, device=DEVICE, dtype=torch.bfloat16)).dtype == torch.bfloat16
