import sys

import torch

from kolite.pipelines.sdxl import Pipeline

if __name__ == "__main__":
    pipe = Pipeline(torch.nn.Identity(), torch.nn.Identity())
    pipe.enable_vae_tiling()
    print(pipe(sys.argv[1]).shape)
