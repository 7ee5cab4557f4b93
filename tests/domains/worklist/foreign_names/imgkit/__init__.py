from .nets.blocks import CrossAttention
from .utils.dist import get_rank

__all__ = ["CrossAttention", "get_rank"]
