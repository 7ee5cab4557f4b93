import torch

from tinydiff import Sampler

if __name__ == "__main__":
    print(Sampler().step(torch.ones(2)))
