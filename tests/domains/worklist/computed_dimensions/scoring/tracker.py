import torch


class Tracker:
    def __init__(self):
        self.device = torch.device("cuda:0")

    def track(self):
        with torch.autocast("cuda", dtype=torch.float16):
            return torch.zeros(2, device=self.device).sum()


class OldTracker:
    """The first tracker; nothing builds it any more."""

    def __init__(self):
        torch.cuda.set_device(0)
