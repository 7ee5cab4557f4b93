from .core import quantized_attention
