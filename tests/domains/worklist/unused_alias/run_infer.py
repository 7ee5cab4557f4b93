import torch

from models.pipeline import load

if __name__ == "__main__":
    load(torch.nn.Linear(2, 2))
