import argparse

import torch

from musicgen.decoder import Decoder


def get_args():
    parser = argparse.ArgumentParser(description="decoder only, from saved tokens")
    parser.add_argument("--tokens", required=True)
    return parser.parse_args()


def main():
    args = get_args()
    decoder = Decoder().cuda()
    tokens = torch.load(args.tokens).cuda()
    decoder(tokens)


if __name__ == "__main__":
    main()
