import torch

q = torch.randn(4096, device="cuda")
torch.save(q.cpu(), "q.pt")
