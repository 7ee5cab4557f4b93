import argparse

import torch

from clipgen import ClipPipeline


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prompt", required=True)
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args()
    pipe = ClipPipeline().to_device()
    x = torch.randn(1, 64, device="cuda")
    for _ in range(args.steps):
        x = pipe(x)
    print(args.prompt, x.shape)


if __name__ == "__main__":
    main()
