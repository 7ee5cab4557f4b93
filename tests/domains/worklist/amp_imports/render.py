import argparse

import torch

from nerf import composite_rays, freq_encode, march_rays


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rays", type=int, default=1024)
    a = p.parse_args()
    rays_o = torch.zeros(a.rays, 3)
    rays_d = torch.nn.functional.normalize(torch.randn(a.rays, 3), dim=-1)
    pts = march_rays(rays_o, rays_d)
    feats = freq_encode(pts, 4)
    print(composite_rays(feats.sum(-1), feats[..., :3]).shape)


if __name__ == "__main__":
    main()
