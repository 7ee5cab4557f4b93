import argparse

import torch

from networks import MappingNetwork

if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", type=int, default=4)
    a = p.parse_args()
    net = MappingNetwork()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
    print(net(torch.randn(a.seeds, 512)).shape)
    if torch.cuda.is_available():
        print(torch.cuda.max_memory_allocated())
        torch.cuda.manual_seed_all(0)
