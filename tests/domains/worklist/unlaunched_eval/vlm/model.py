import importlib

import torch


class VLM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(16, 16)

    def forward(self, x):
        return self.proj(x)

    def reload(self):
        # the module this class is defined in: loaded already
        return importlib.import_module(self.__module__)
