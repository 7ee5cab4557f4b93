import argparse

import torch

from vid.modules.model_v2 import VideoModel, timestep_embedding


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    model = VideoModel(dim=64)
    t = timestep_embedding(torch.arange(args.steps), 64)
    print(model(t).shape)


if __name__ == "__main__":
    main()
