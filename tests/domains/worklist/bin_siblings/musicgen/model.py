import torch

from musicgen.loader import instantiate


class MusicModel(torch.nn.Module):
    def __init__(self, device):
        super().__init__()
        self.decoder = instantiate({"class_path": "musicgen.decoder.Decoder"})
        self.device = device

    def generate(self, prompt):
        return self.decoder(prompt)
