"""Fused bias and activation, with a reference implementation in plain torch."""
import os

import torch

from .. import custom_ops

_plugin = None


def _init():
    global _plugin
    if _plugin is None:
        _plugin = custom_ops.get_plugin(
            module_name="bias_act_plugin",
            sources=[os.path.join(os.path.dirname(__file__), f) for f in ("bias_act.cpp", "bias_act.cu")],
            extra_cuda_cflags=["--use_fast_math"],
        )
    return True


def bias_act(x, b=None, act="linear", impl="cuda"):
    if impl == "cuda" and x.device.type == "cuda" and _init():
        return _bias_act_cuda(act=act).apply(x, b)
    return _bias_act_ref(x, b, act)


def _bias_act_ref(x, b, act):
    if b is not None:
        x = x + b.reshape([1, -1] + [1] * (x.ndim - 2))
    return torch.nn.functional.leaky_relu(x, 0.2) if act == "lrelu" else x


def _bias_act_cuda(act="linear"):
    class BiasActCuda(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, b):
            return _plugin.bias_act(x, b, act)

        @staticmethod
        def backward(ctx, dy):
            return dy, dy.sum(dim=0)

    return BiasActCuda
