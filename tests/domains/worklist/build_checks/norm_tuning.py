"""Launch tuning for a fused norm kernel: prunes autotune configs per platform."""
import torch


def prune_configs(configs):
    if torch.version.hip:
        # ROCm: MI300 needs smaller blocks
        arch = torch.cuda.get_device_properties(0).gcnArchName
        if "gfx94" in arch:
            return [c for c in configs if c["BLOCK"] <= 1024]
    return configs


def grid_size(x, rows):
    sm_count = torch.cuda.get_device_properties(x.device).multi_processor_count
    return min(rows, sm_count * 4)
