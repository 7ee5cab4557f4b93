import argparse

import torch

import nvdiffrast.torch as dr

if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--res", type=int, default=512)
    a = p.parse_args()
    tex = torch.rand(1, a.res, a.res, 3)
    uv = torch.rand(1, a.res, a.res, 2)
    print(dr.texture(tex, uv).shape)
