import torch
import torch.nn as nn


class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(1, 32)

    def forward(self, sample, timestep):
        timesteps = timestep
        if not torch.is_tensor(timesteps):
            is_mps = sample.device.type == "mps"
            if isinstance(timestep, float):
                dtype = torch.float32 if is_mps else torch.float64
            else:
                dtype = torch.int32 if is_mps else torch.int64
            timesteps = torch.tensor([timesteps], dtype=dtype, device=sample.device)
        emb = self.proj(timesteps[:, None].float())
        scale = torch.ones(1, dtype=torch.float64, device=sample.device)
        return sample + emb.mean() * scale.float()
