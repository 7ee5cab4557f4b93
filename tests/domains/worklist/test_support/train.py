import torch

from vidkit import TinyDiT

if __name__ == "__main__":
    model = TinyDiT(16).cuda()
    print(model(torch.randn(4, 16).cuda()).sum().item())
