import argparse

import torch

from vidgen.npu_config import npu_config
from vidgen.blocks import VideoBlock, free_memory
from vidgen.profiling import time_step


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dim", type=int, default=64)
    args = parser.parse_args()
    npu_config.seed_everything(0)
    block = VideoBlock(args.dim).cuda()
    x = torch.randn(2, args.dim, device="cuda")
    y, ms = time_step(block, x)
    print(y.shape, ms)
    free_memory()


if __name__ == "__main__":
    main()
