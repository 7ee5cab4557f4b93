import torch

IS_ROCM = torch.cuda.is_available() and torch.version.hip is not None


def is_sm_at_least_100():
    return (
        torch.cuda.is_available()
        and torch.version.cuda
        and torch.cuda.get_device_capability() >= (10, 0)
    )


def pick_device():
    return "cuda" if torch.cuda.is_available() and not IS_ROCM else "cpu"
