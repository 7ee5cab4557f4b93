import torch

if torch.cuda.is_available():
    x = torch.ones(2).cuda()
    print((x * 2).cuda())
