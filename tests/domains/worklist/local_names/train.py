"""Training entry point: its own process-group setup, a helper from common."""
import argparse

import torch
import torch.distributed as dist

from common.utils import count_params


def setup_dist(local_rank):
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl", init_method="env://")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=0)
    args = parser.parse_args()
    setup_dist(args.local_rank)
    model = torch.nn.Linear(8, 8)
    print(count_params(model))


if __name__ == "__main__":
    main()
