"""Decoder blocks: moved to the device by the pipeline, which always names it."""
import torch


class Block(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = torch.nn.Linear(dim, dim)

    def place(self, device="cuda"):
        # every call (through any receiver: `block.place(...)`) passes device
        self.proj = self.proj.to(device)

    def warm(self, device="cuda"):
        # one call leaves device out: the default is where it runs
        return torch.zeros(1, device=device)

    def forward(self, x, device="cuda"):
        # called as block(x): no call names forward, so its default stays
        return self.proj(x.to(device))


class KvBuffer:
    def __init__(self, n, device="cuda"):
        # built with device everywhere; a type test of the class is no call
        self.data = torch.zeros(n, device=device)


class Decoder:
    def __init__(self, dims, device):
        self.blocks = [Block(d) for d in dims]
        self.buffer = KvBuffer(4, device=device)
        for block in self.blocks:
            block.place(device)
        self.blocks[0].warm()

    def reset(self, device):
        if isinstance(self.buffer, KvBuffer):
            self.buffer = KvBuffer(4, device)
        for block in self.blocks:
            block.place(device=device)
