import torch

try:
    from flash_attn_interface import flash_attn_func as fa3_func
    FA3_READY = True
except ImportError:
    FA3_READY = False

try:
    from . import _native_ext
    NATIVE_READY = True
except ImportError:
    NATIVE_READY = False


def fa3_baseline(q, k, v, causal=False):
    scale = q.shape[-1] ** -0.5
    assert FA3_READY, "flash-attention 3 is not installed"
    assert q.is_cuda, "needs CUDA tensors"
    return fa3_func(q, k, v, causal=causal, softmax_scale=scale)[0]


def fp8_baseline(q, k, v):
    if not FA3_READY:
        raise RuntimeError("flash-attention 3 is not installed")
    q8 = q.to(torch.float8_e4m3fn)
    return fa3_func(q8, k.to(torch.float8_e4m3fn), v.to(torch.float8_e4m3fn))[0]


def native_attn(q, k, v):
    assert NATIVE_READY, "build the extension first"
    assert q.is_cuda, "needs CUDA tensors"
    return _native_ext.attn(q, k, v)


try:
    import einops
    HAS_EINOPS = True
except ImportError:
    HAS_EINOPS = False


def rearranged(q):
    assert HAS_EINOPS, "einops is needed"  # einops runs on the NPU: the rest is reported
    assert q.is_cuda, "needs CUDA tensors"
    return einops.rearrange(q, "b h s d -> b s h d")
