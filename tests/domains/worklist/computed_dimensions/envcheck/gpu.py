import torch


def gpu_summary():
    return torch.cuda.get_device_name(0)
