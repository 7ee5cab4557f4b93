"""The sparse KV cache: selected rows are gathered on the GPU."""
import torch

import kvcache_kernels


class SparseCache:
    def __init__(self, keys):
        self.keys = keys

    def select(self, rows):
        out = torch.empty(rows.numel(), self.keys.shape[1], device=self.keys.device)
        kvcache_kernels.gather_rows(self.keys, out, rows)
        kvcache_kernels.batch_softmax(out)
        return out
