import time

import torch

from .encoder import GridEncoder


class Trainer:
    def __init__(self, opt, model):
        self.opt = opt
        self.model = model.to("cuda")
        self.encoder = GridEncoder()

    def train_step(self, rays):
        start = time.time()
        with torch.autocast("cuda", enabled=self.opt.fp16):
            loss = self.model(rays.to("cuda")).square().mean()
        if self.opt.lambda_tv > 0:
            grid = torch.zeros(8, 8, 8, device="cuda")
            loss = loss + self.opt.lambda_tv * grid.abs().mean()
        loss.backward()
        if self.opt.lambda_tv > 0:
            self.encoder.grad_total_variation(self.opt.lambda_tv)
        if self.opt.profile:
            torch.cuda.synchronize()
            print(f"step {time.time() - start:.3f}s")
        if self.opt.cuda_ray:
            torch.cuda.empty_cache()
        return loss
