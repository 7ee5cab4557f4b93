import torch
import torch.distributed as dist


def get_rank():
    return dist.get_rank() if dist.is_initialized() else 0


def all_gather(data):
    # superseded by torch.distributed.all_gather_object; nothing calls it
    size = torch.tensor([data.numel()], device="cuda")
    sizes = [torch.zeros_like(size) for _ in range(dist.get_world_size())]
    dist.all_gather(sizes, size)
    return sizes
