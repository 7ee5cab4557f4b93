import torch


def init_device(use_xpu):
    if use_xpu:
        from trainer.ipex import ipex_init

        ipex_init()
        # replacing torch.cuda's functions redefines them, it calls no CUDA
        torch.cuda.current_device = torch.xpu.current_device
        torch.cuda.is_available = lambda: True
    # a flag set to a constant is still a setting to decide
    torch.backends.cudnn.benchmark = True
    return torch.device("npu")
