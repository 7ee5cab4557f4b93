"""The SSM convolution kernel: the compiled Cauchy kernel when installed, else the naive one."""
import torch

try:
    from extensions.kernels.cauchy import cauchy_mult
except ImportError:
    cauchy_mult = None


def naive_cauchy(v, z):
    return v / (z + 1.0)


def ssm_kernel(v, z):
    if cauchy_mult is not None and v.is_cuda:
        return cauchy_mult(v, z)
    return naive_cauchy(v, z)
