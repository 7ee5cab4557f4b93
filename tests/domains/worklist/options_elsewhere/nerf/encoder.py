import torch


class GridEncoder(torch.nn.Module):
    def __init__(self, size=16):
        super().__init__()
        self.embeddings = torch.nn.Parameter(torch.zeros(size, size, size))

    def forward(self, x):
        return x * self.embeddings.mean()

    def grad_total_variation(self, weight):
        with torch.cuda.amp.autocast(enabled=False):
            diff = self.embeddings[1:] - self.embeddings[:-1]
            self.embeddings.grad += weight * diff.abs().mean()
