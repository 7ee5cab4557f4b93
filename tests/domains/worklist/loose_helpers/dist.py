"""Process-group helpers for train.py."""
import torch
import torch.distributed as tdist

__device = "cpu"


def initialize(backend="nccl"):
    global __device
    tdist.init_process_group(backend=backend)
    torch.cuda.set_device(tdist.get_rank() % torch.cuda.device_count())
    __device = torch.empty(1).cuda().device


def set_gpu_id(gpu_id):
    # nothing calls this: a helper of an older launcher
    global __device
    torch.cuda.set_device(gpu_id)
    __device = torch.empty(1).cuda().device


def allreduce(t):
    cu = t.detach().cuda()
    tdist.all_reduce(cu)
    t.copy_(cu.cpu())
