import torch

from norm_tuning import grid_size, prune_configs

if __name__ == "__main__":
    x = torch.randn(4096, 1024)
    print(prune_configs([{"BLOCK": 512}, {"BLOCK": 2048}]), grid_size(x, x.shape[0]))
