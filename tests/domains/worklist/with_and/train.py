import argparse

import torch
from torch import nn


def train_step(model, opt, batch, train=True):
    # `and` yields the second manager: autocast is built but never entered
    with torch.cuda.amp.autocast() and torch.set_grad_enabled(train):
        loss = nn.functional.mse_loss(model(batch), batch)
    if train:
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss


def validate(model, batch):
    with torch.no_grad(), torch.cuda.amp.autocast(dtype=torch.bfloat16):
        return nn.functional.mse_loss(model(batch), batch)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    model = nn.Sequential(nn.Linear(64, 16), nn.GELU(), nn.Linear(16, 64))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(args.steps):
        batch = torch.randn(8, 64)
        train_step(model, opt, batch)
    print(validate(model, torch.randn(8, 64)).item())


if __name__ == "__main__":
    main()
