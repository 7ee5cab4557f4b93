import torch


class Demo:
    def __init__(self, model, parallel=False):
        self.model = model
        if parallel:
            self.workers = torch.cuda.device_count()
        else:
            self.workers = 1


class Exporter:
    def __init__(self, model, half=False):
        self.model = model
        if half:
            self.model = model.cuda().half()


def build(model):
    return Demo(model), Exporter(model, half=True)
