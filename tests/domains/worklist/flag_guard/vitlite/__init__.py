from .blocks import SelfAttention
from .modeling import Attention, Block

__all__ = ["Attention", "Block", "SelfAttention"]
