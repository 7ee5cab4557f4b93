import argparse

import torch

from musicgen.model import MusicModel


def get_args():
    parser = argparse.ArgumentParser(description="batch inference")
    parser.add_argument("--prompts", required=True)
    parser.add_argument("--out", required=True)
    return parser.parse_args()


def main():
    args = get_args()
    model = MusicModel("cuda")
    torch.cuda.synchronize()
    with open(args.prompts) as f:
        for line in f:
            model.generate(line.strip())


if __name__ == "__main__":
    main()
