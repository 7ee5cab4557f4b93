import torch


def psnr(a, b):
    mse = torch.mean((a.cuda() - b.cuda()) ** 2)
    return 10 * torch.log10(1.0 / mse)
