import argparse

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--compile", action="store_true")
    parser.add_argument("--graphs", action="store_true")
    args = parser.parse_args()
    model = torch.nn.Linear(64, 64).to("npu")
    if args.compile:
        model = torch.compile(model, mode="max-autotune-no-cudagraphs")
    if args.graphs:
        model = torch.compile(model, mode="reduce-overhead")
    fast = torch.compile(model)
    return fast


if __name__ == "__main__":
    main()
