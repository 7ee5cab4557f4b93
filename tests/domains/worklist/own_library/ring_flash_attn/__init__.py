"""Ring attention over a sequence-parallel group: this project is the library."""
from .ring import ring_attention

__all__ = ["ring_attention"]
