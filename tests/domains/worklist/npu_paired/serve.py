"""A model worker that already supports several devices, FastChat style."""
import torch


def release(device):
    """Frees cached blocks after a generation."""
    torch.cuda.empty_cache()
    if device == "xpu":
        torch.xpu.empty_cache()
    if device == "npu":
        torch.npu.empty_cache()


def sync_all():
    """No NPU branch here: the CUDA call is work."""
    torch.cuda.synchronize()
    if torch.distributed.is_initialized():
        torch.distributed.barrier()
