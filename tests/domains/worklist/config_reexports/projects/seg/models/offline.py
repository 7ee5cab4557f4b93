import torch
import torch.cuda.amp as amp


class OfflineExporter:
    """Exports masks on one GPU; only the package re-exports it."""

    def __init__(self, device_id=0):
        self.device = torch.device(f"cuda:{device_id}")

    def export(self, masks):
        with amp.autocast(dtype=torch.float16):
            masks = masks.to(self.device) * 2
        torch.cuda.synchronize()
        return masks
