"""Device hooks for MetaX GPUs, which run the CUDA build through MACA."""
import torch


def current_device():
    return torch.device("cuda", torch.cuda.current_device())
