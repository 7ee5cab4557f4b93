"""Training losses; the perceptual one is left over from an experiment."""
import torch
import torch.nn as nn


class FlowLoss(nn.Module):
    def __init__(self):
        super(FlowLoss, self).__init__()

    def forward(self, flow, gt):
        return (flow - gt).abs().mean()


class PerceptualLoss(nn.Module):
    def __init__(self):
        super(PerceptualLoss, self).__init__()
        self.shift = torch.zeros(3).cuda()

    def forward(self, x, y):
        return ((x - self.shift) - (y - self.shift)).abs().mean()
