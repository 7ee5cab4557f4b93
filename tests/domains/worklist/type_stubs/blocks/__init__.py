from .ffn import FeedForward

__all__ = ["FeedForward"]
