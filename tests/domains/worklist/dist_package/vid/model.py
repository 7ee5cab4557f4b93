import torch

from .dist import get_sp_group


class Transformer(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = torch.nn.Linear(dim, dim)

    def forward(self, x):
        if get_sp_group is not None and torch.distributed.is_initialized():
            x = get_sp_group().all_gather(x, dim=1)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return self.proj(x)
