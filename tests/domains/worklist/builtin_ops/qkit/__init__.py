from .convert import fold_quantize
from .x86 import prepack_conv

__all__ = ["fold_quantize", "prepack_conv"]
