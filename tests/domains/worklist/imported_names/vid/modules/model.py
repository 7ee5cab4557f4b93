"""The first release's model, kept for its checkpoints."""
import torch

__all__ = ["VideoModel"]


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.arange(half, dtype=torch.float64) / half
    return torch.cat([torch.cos(t[:, None] * freqs), torch.sin(t[:, None] * freqs)], dim=-1)


class VideoModel(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = torch.nn.Linear(dim, dim).to("cuda")

    def forward(self, t):
        return self.proj(timestep_embedding(t, self.proj.in_features))
