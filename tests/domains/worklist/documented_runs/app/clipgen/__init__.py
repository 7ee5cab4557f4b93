from .pipeline import ClipPipeline
from .legacy import LegacyPipeline

__all__ = ["ClipPipeline"]
