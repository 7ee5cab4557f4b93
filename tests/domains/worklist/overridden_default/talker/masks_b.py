import torch


def block_mask(n, device="cuda"):
    # another definition of the name: its caller leaves the device out
    return torch.zeros(n, n, dtype=torch.bool, device=device)
