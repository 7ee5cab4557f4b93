import torch


class Decoder(torch.nn.Module):
    def forward(self, prompt):
        return torch.zeros(16000)
