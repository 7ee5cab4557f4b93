from .nets.blocks import CrossAttention
from .nets.build import build
from .utils.dist import get_rank

__all__ = ["CrossAttention", "build", "get_rank"]
