from torch import nn


class Segmentor(nn.Module):
    def __init__(self, head=None):
        super().__init__()
        self.head = head

    def forward(self, x):
        return self.head(x)
