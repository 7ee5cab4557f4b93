"""Sampling with Ulysses sequence parallelism: torchrun --nproc_per_node=8 generate.py --ulysses_size 8"""
import argparse

import torch.distributed as dist
from xfuser.core.distributed import init_distributed_environment, initialize_model_parallel

from model.blocks import shard_tokens


def main(args):
    dist.init_process_group(backend="nccl")
    init_distributed_environment(rank=dist.get_rank(), world_size=dist.get_world_size())
    initialize_model_parallel(sequence_parallel_degree=args.ulysses_size, ulysses_degree=args.ulysses_size)
    print(shard_tokens(list(range(64))))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ulysses_size", type=int, default=1)
    main(parser.parse_args())
