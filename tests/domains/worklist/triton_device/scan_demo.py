import torch

from ssm import selective_scan

if __name__ == "__main__":
    x = torch.randn(8, 256, device="cuda")
    print(selective_scan(x, torch.rand_like(x)).sum())
