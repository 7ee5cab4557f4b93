import torch


def init(rank):
    torch.cuda.set_device(rank)
