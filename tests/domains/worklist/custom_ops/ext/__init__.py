"""Fused ops registered by the project's own C++ extension (torch.ops.fk)."""
import torch

from . import _C  # noqa: F401  (registers torch.ops.fk)
