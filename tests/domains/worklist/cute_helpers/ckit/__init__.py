from ckit.rmsnorm import rmsnorm

__all__ = ["rmsnorm"]
