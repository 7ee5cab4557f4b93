import torch

from .annotator.hed import HEDdetector
from .annotator.depth import DepthDetector


class Pipeline:
    def __init__(self, control):
        self.annotator = HEDdetector() if control == "hed" else DepthDetector()

    def run(self):
        image = torch.rand(1, 3, 64, 64)
        return self.annotator(image)
