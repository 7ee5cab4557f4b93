import argparse

import torch

from kvcache.cache import SparseCache


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", required=True)
    args = p.parse_args()
    cache = SparseCache(torch.randn(64, 128))
    print(args.model, cache.select(torch.arange(8)).shape)


if __name__ == "__main__":
    main()
