"""Single-node trainer.

Moves the model with torch.cuda.synchronize() and .cuda() calls; none of the
words in this docstring are findings.
"""
import argparse
import os

import torch as th
import torch.nn.functional as F
from torch import cuda
from torch.cuda.amp import autocast, GradScaler

os.environ["CUDA_VISIBLE_DEVICES"] = "0,1"
os.environ.setdefault("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True")


class Net(th.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = th.nn.Linear(16, 4)

    def forward(self, x):
        if x.is_cuda:
            x = x.contiguous()
        return F.relu(self.fc(x))


def train(args):
    device = th.device(f"cuda:{args.local_rank}")
    model = Net().cuda()
    opt = th.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = GradScaler()
    print("training on cuda")  # log text, not a finding
    for step in range(10):
        x = th.randn(8, 16, device="cuda")
        with autocast():
            loss = model(x).sum()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        if step % 5 == 0:
            th.cuda.synchronize()
            cuda.empty_cache()
    assert x.device.type == "cuda"
    th.save(model.state_dict(), "ckpt.pt")
    state = th.load("ckpt.pt", map_location="cuda:0")
    return state


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--local_rank", type=int, default=0)
    train(p.parse_args())
