import torch

_FLOAT_TYPES = (torch.FloatTensor, torch.cuda.FloatTensor)
_HALF_TYPES = (torch.HalfTensor, torch.cuda.HalfTensor)


def to_half(x):
    return x.half() if isinstance(x, _FLOAT_TYPES) else x


def to_float(x):
    return x.float() if isinstance(x, _HALF_TYPES) else x
