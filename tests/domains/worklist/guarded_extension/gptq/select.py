try:
    import exkernels  # noqa: F401

    EX_AVAILABLE = True
except ImportError:
    EX_AVAILABLE = False


def select_quant_linear(use_ex=True):
    if use_ex and EX_AVAILABLE:
        from .qlinear_ex import QuantLinear
    else:
        from .qlinear_torch import QuantLinear
    return QuantLinear
