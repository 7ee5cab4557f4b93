from .model import TinyDiT

__all__ = ["TinyDiT"]
