import warnings

import torch

try:
    from detr import _C
except ImportError:
    warnings.warn("custom ops unavailable: points are counted in PyTorch")


def points_per_cell(cells, bins):
    """How many points fall in each cell; the CUDA op where the tensor lives on a GPU."""
    if cells.device.type == "cuda":
        return _C.count_cuda(cells, bins)
    elif cells.device.type == "cpu":
        return torch.bincount(cells, minlength=bins).int()
    else:
        return torch.bincount(cells.cpu(), minlength=bins).int().to(cells.device)
