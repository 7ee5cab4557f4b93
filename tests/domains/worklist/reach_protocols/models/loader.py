"""A data loader whose iterator pins batches on the current device."""
import torch
from torch.utils.data import DataLoader


class PinnedIterator:
    def __init__(self, loader):
        self.device = torch.cuda.current_device()
        self.loader = loader


class PinnedLoader(DataLoader):
    def _get_iterator(self):
        return PinnedIterator(self)
