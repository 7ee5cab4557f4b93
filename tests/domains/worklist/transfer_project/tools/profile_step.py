"""Times one step on a CUDA machine; loads no device configuration."""
import torch

from vidgen.profiling import time_step


if __name__ == "__main__":
    layer = torch.nn.Linear(64, 64).to("cuda")
    _, ms = time_step(layer, torch.randn(8, 64, device="cuda"))
    print(f"{ms:.2f} ms")
