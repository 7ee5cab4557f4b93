import torch

from ssm.kernel import ssm_kernel
from ssm.rope import rope

if __name__ == "__main__":
    v = torch.randn(64)
    print(ssm_kernel(v, v).sum())
