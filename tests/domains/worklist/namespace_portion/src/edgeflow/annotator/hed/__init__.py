import os

import torch

from ...annotator.util import annotator_ckpts_path


class HEDdetector:
    def __init__(self):
        path = os.path.join(annotator_ckpts_path, "hed.pth")
        self.net = torch.nn.Conv2d(3, 1, 3)
        self.net.load_state_dict(torch.load(path), strict=False)
        self.net = self.net.cuda().eval()

    def __call__(self, image):
        with torch.no_grad():
            return self.net(image.cuda())
