import argparse

import torch

from vid.dist import set_devices
from vid.model import Transformer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ulysses_degree", type=int, default=1)
    args = parser.parse_args()
    set_devices(args.ulysses_degree)
    model = Transformer(64)
    print(model(torch.randn(1, 8, 64)).shape)


if __name__ == "__main__":
    main()
