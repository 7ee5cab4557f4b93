"""Face detection: every caller says which device the detector runs on."""
import torch


class FaceDetector:
    def __init__(self, device="cuda"):
        # every call in the project passes device: this default never takes effect
        self.device = device
        self.net = torch.nn.Conv2d(3, 8, 3).to(device)

    def __call__(self, frames):
        return self.net(frames.to(self.device))


def load_audio_encoder(path, device=None):
    if device is None:
        # only a caller leaving device out reaches this branch, and none does
        device = "cuda" if torch.cuda.is_available() else "cpu"
    encoder = torch.load(path, map_location="cpu")
    return encoder.to(device)


def load_landmarks(path, device="cuda"):
    # one caller leaves device out: the default is the device it runs on
    return torch.load(path, map_location=device)


class MotionModel:
    def __init__(self, device="cuda", window=8):
        # built from a spread of options: they may or may not name device
        self.net = torch.nn.Linear(window, window).to(device)


def build_tracker(device="cuda"):
    # passed on as a callback: whoever calls it may leave device out
    return torch.nn.Identity().to(device)
