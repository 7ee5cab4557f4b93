"""Mel-to-wave vocoder wrapper: the wrapper picks the device, the regions follow it."""
import torch


class VocoderWrapper:
    def __init__(self, model, device="cpu", fp16=True):
        self.model = model
        self.device = torch.device(device)
        self.dtype = torch.float16 if fp16 else torch.float32

    @torch.no_grad()
    def decode(self, mel):
        mel = mel.to(self.device)
        with torch.autocast(device_type=self.device.type, dtype=self.dtype):
            wave = self.model(mel)
        # the loudness pass stays in fp32 on any device
        with torch.autocast(mel.device.type, dtype=torch.float32):
            return wave / wave.abs().amax(dim=-1, keepdim=True).clamp(min=1e-5)


class LegacyWrapper:
    def __init__(self, model, device="cuda:0"):
        self.model = model
        self.device = device

    @torch.no_grad()
    def decode(self, mel):
        # "cuda:0"[:4] is "cuda"; on the NPU "npu:0"[:4] is "npu:", no device type
        with torch.autocast(device_type=self.device[:4], dtype=torch.float16):
            return self.model(mel.to(self.device))
