import torch

x = torch.randn(4, 4).cuda()
print(x @ x)
