"""Text-to-video pipeline: the CUDA autocast module under an alias."""
import math

import torch
import torch.cuda.amp as amp


def sinusoidal_embedding(dim, position):
    sinusoid = torch.outer(position.to(torch.float64), torch.arange(dim // 2).to(position))
    return torch.cat([torch.cos(sinusoid), torch.sin(sinusoid)], dim=1)


def rope_apply(x, freqs):
    output = []
    for i in range(x.size(0)):
        s, n = x.size(1), x.size(2)
        x_i = torch.view_as_complex(x[i, :s].to(torch.float64).reshape(s, n, -1, 2))
        output.append(torch.view_as_real(x_i * freqs).flatten(2))
    return torch.stack(output).float()


class Block(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = torch.nn.Linear(dim, dim)

    def forward(self, x, e, freqs):
        with amp.autocast(dtype=torch.float32):
            e = self.proj(e + sinusoidal_embedding(e.size(1), e[:, 0]))
        return rope_apply(x, freqs) * (1 + e) / math.sqrt(2)


class Pipeline:
    def __init__(self, model):
        self.model = model

    @torch.no_grad()
    def generate(self, x, e, freqs):
        with amp.autocast(dtype=torch.bfloat16):
            return self.model(x, e, freqs)


if __name__ == "__main__":
    print(Pipeline(Block(8)).generate(torch.randn(2, 8), torch.randn(2, 8), torch.ones(4, dtype=torch.complex64)))
