from .model import VLM

__all__ = ["VLM"]
