import torch_npu


def apply_rope(x, cos, sin):
    return torch_npu.npu_rotary_mul(x, cos, sin)
