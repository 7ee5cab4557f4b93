from .modeling import Attention, Block

__all__ = ["Attention", "Block"]
