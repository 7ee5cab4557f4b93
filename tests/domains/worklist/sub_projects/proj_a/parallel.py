import torch.distributed as dist


def init():
    dist.init_process_group("nccl")
