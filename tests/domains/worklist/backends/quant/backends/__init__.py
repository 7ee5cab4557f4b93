import torch

if torch.cuda.is_available():
    from .cuda import ops
else:
    from .xpu import ops

__all__ = ["ops"]
