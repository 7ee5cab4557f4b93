import os

import torch

from vidgen.attention import attention
from vidgen.memory import gpu

if __name__ == "__main__":
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    q = torch.randn(1, 16, 8, 64).to(gpu)
    k = torch.randn(1, 16, 8, 64).to(local_rank)
    print(attention(q, k, k).shape)
