"""Memory helpers of a video pipeline's auto-configuration."""
import torch


def gpu_memory(device=None):
    # an early exit on the CUDA test: the rest of the function is its branch
    if not torch.cuda.is_available():
        return 0
    device = device if device is not None else torch.cuda.current_device()
    props = torch.cuda.get_device_properties(device)
    return props.total_memory


def peak_memory():
    # an exit that raises is a requirement, not a branch: two items
    if not torch.cuda.is_available():
        raise RuntimeError("a GPU is required")
    return torch.cuda.max_memory_allocated()


def tile_size(x):
    # a tensor's device test that returns the fallback first
    if x.device.type != "cuda":
        return 128
    torch.cuda.synchronize()
    return 512
