import argparse

import torch

from gaussian_renderer import render
from scene.gaussian_model import GaussianModel


def training(args):
    gaussians = GaussianModel(args.sh_degree)
    gaussians.create_from_points(torch.rand(1000, 3, device="cuda"))
    for _ in range(args.iterations):
        out = render(args.camera, gaussians, torch.zeros(3, device="cuda"))
        out["render"].mean().backward()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--sh_degree", type=int, default=3)
    p.add_argument("--iterations", type=int, default=30000)
    training(p.parse_args())
