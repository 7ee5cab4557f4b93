"""A quantization package with one kernel backend per device."""
from .offload import offload_step, warm_up

__all__ = ["offload_step", "warm_up"]
