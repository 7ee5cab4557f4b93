"""Shared helpers; this setup_dist is an older copy nothing calls (train.py
calls its own)."""
import torch
import torch.distributed as dist


def count_params(model):
    return sum(p.numel() for p in model.parameters())


def setup_dist(args):
    if dist.is_initialized():
        return
    torch.cuda.set_device(args.local_rank)
    dist.init_process_group("nccl", init_method="env://")
