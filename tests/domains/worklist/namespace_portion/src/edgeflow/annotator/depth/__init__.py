import torch

from ..util import annotator_ckpts_path


def unwrap(model):
    # a checkpoint saved from a wrapped model: only asks whether it was wrapped
    if isinstance(model, (torch.nn.DataParallel, torch.nn.parallel.DistributedDataParallel)):
        return model.module
    return model


class DepthDetector:
    def __init__(self):
        self.net = unwrap(torch.load(annotator_ckpts_path + "/depth.pt"))

    def __call__(self, image):
        assert isinstance(image, torch.cuda.FloatTensor)
        return self.net(image)
