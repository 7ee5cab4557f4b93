import argparse

import torch

from sparse_attn import sparse_attention


@torch.no_grad()
def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--length", type=int, default=1024)
    args = parser.parse_args()
    q = torch.randn(args.length, device="npu")
    print(sparse_attention(q, q, q).sum())


if __name__ == "__main__":
    main()
