import torch

from ring import attention

if __name__ == "__main__":
    q = torch.randn(1, 128, 8, 64)
    print(attention(q, q, q).shape)
