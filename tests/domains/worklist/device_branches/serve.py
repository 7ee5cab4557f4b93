"""A demo server's device setup: selections, a TF32 block, an autocast switch."""
import contextlib

import torch


def pick_device(force_cpu=False):
    if torch.cuda.is_available() and not force_cpu:
        device = torch.device("cuda")
    elif torch.backends.mps.is_available() and not force_cpu:
        device = torch.device("mps")
    else:
        device = torch.device("cpu")
    if device.type == "cuda":
        # TF32 on Ampere and newer
        if torch.cuda.get_device_properties(0).major >= 8:
            torch.backends.cuda.matmul.allow_tf32 = True
            torch.backends.cudnn.allow_tf32 = True
    elif device.type == "mps":
        print("MPS support is preliminary")
    return device


def setup(accelerator, local_rank):
    if accelerator == "cuda":
        device = torch.device("cuda", local_rank)
        torch.cuda.set_device(local_rank)
    elif accelerator == "cpu":
        device = torch.device("cpu")
    else:
        raise ValueError(accelerator)
    return device


def autocast_context(device):
    if device.type == "cuda":
        return torch.autocast("cuda", dtype=torch.bfloat16)
    return contextlib.nullcontext()


def stats(device):
    if device.type == "cuda":
        print(torch.cuda.memory_usage())


if __name__ == "__main__":
    d = pick_device()
    setup("cuda", 0)
    with autocast_context(d):
        stats(d)
