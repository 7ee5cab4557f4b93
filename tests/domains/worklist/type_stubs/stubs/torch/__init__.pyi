# Minimal torch stubs for the type checker (mypy_path = stubs).
from typing import Any

from . import cuda as cuda

class Tensor:
    def cuda(self, device: Any = ...) -> "Tensor": ...
    def to(self, *args: Any, **kwargs: Any) -> "Tensor": ...

def empty(*size: int, device: Any = ...) -> Tensor: ...
