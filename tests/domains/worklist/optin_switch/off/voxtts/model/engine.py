import sys

import torch


class Engine:
    def __init__(self, path, use_fast=False):
        self.path = path
        self.is_fast = use_fast
        self.model = None

    def load_weights(self):
        if self.is_fast and sys.platform == "linux":
            from .fastpath import FastLLM

            self.llm = FastLLM(self.path)
            torch.cuda.synchronize()
            return
        self.model = torch.load(self.path).to("cuda")

    def generate(self, text):
        return self.model(text)
