import torch

from funasr_local.register import tables


@tables.register("model_classes", "paraformer-streaming")
class ParaformerStreaming(torch.nn.Module):
    def forward(self, speech):
        with torch.cuda.amp.autocast(enabled=False):
            return speech.mean(-1)
