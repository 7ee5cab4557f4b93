import torch

from ldm.attention import BasicTransformerBlock

if __name__ == "__main__":
    block = BasicTransformerBlock()
    print(block(torch.randn(1, 8, 64, 40)).shape)
