import argparse

import torch

from sparse_attn import sparse_attention


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    weight = torch.nn.Parameter(torch.randn(1024, device="npu"))
    optimizer = torch.optim.AdamW([weight], lr=1e-4)
    for _ in range(args.steps):
        loss = sparse_attention(weight, weight, weight).square().mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
