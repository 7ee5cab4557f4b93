import torch
import torch.distributed as dist

try:
    from xfuser.core.distributed import get_sp_group, init_distributed_environment
except Exception:
    get_sp_group = None
    init_distributed_environment = None


def set_devices(ulysses_degree):
    if ulysses_degree > 1:
        if get_sp_group is None:
            raise RuntimeError("xfuser is not installed.")
        dist.init_process_group("nccl")
        torch.cuda.set_device(dist.get_rank())
        init_distributed_environment(rank=dist.get_rank(), world_size=dist.get_world_size())
