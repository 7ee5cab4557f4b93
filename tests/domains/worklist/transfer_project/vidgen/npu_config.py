"""Device configuration every entry script loads first."""
import os

import torch

try:
    import torch_npu  # noqa: F401
    from torch_npu.contrib import transfer_to_npu  # noqa: F401

    npu_is_available = True
except ImportError:
    npu_is_available = False


class NPUConfig:
    def __init__(self):
        self.on_npu = npu_is_available
        self.rank = int(os.environ.get("RANK", "0"))

    def seed_everything(self, seed):
        torch.manual_seed(seed)


npu_config = NPUConfig()
