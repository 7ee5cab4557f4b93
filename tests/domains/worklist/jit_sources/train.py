import torch

from model import Block

if __name__ == "__main__":
    block = Block(512).to("cuda")
    x = torch.randn(4, 128, 512, device="cuda")
    block(x).sum().backward()
