import torch

from ssm.kernel import ssm_kernel

if __name__ == "__main__":
    v = torch.randn(64)
    print(ssm_kernel(v, v).sum())
