import torch
import torch.nn as nn


class CameraEmbedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 768)

    def forward(self, pose):
        return self.proj(pose.to(torch.cuda.current_device()))
