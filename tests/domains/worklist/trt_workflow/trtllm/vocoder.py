"""The PyTorch vocoder the serving recipe runs beside the captioner's engine."""
import torch


class Vocoder(torch.nn.Module):
    def __init__(self, device_id=0):
        super().__init__()
        self.device = torch.device(f"cuda:{device_id}")
        self.proj = torch.nn.Linear(80, 256).to(self.device)

    @torch.inference_mode()
    def forward(self, mel):
        with torch.cuda.amp.autocast(dtype=torch.float16):
            return self.proj(mel.to(self.device))


if __name__ == "__main__":
    print(Vocoder()(torch.randn(1, 80)).shape)
