import argparse

import torch

from nerf.trainer import Trainer

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--workspace", type=str, default="workspace")
    parser.add_argument("--profile", action="store_true", help="time each step")
    parser.add_argument("--lambda_tv", type=float, default=0, help="total variation loss weight")
    parser.add_argument("--fp16", action="store_true", help="mixed precision")
    parser.add_argument("--cuda_ray", action="store_true", help="CUDA ray marching")
    opt = parser.parse_args()
    trainer = Trainer(opt, torch.nn.Linear(3, 3))
    trainer.train_step(torch.randn(16, 3))
