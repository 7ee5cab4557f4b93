import argparse

import torch

from detr import Detector


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("image")
    args = parser.parse_args()
    model = Detector().to("cuda").eval()
    print(args.image, sum(p.numel() for p in model.parameters()))


if __name__ == "__main__":
    main()
