import os

import torch

from funasr_local.register import tables


class AutoModel:
    def __init__(self, model):
        name = os.path.basename(model)
        model_class = tables.model_classes.get(name)
        self.model = model_class()

    def infer_encoder(self, speech):
        self.model.cuda()
        with torch.no_grad():
            return self.model(speech)
