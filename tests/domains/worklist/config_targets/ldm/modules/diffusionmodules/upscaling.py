import torch
import torch.nn as nn


class ImageConcatWithNoiseAugmentation(nn.Module):
    def forward(self, x):
        torch.cuda.synchronize()
        return x
