import torch

from funasr_local.register import tables


@tables.register("model_classes", "transducer")
class Transducer(torch.nn.Module):
    def forward(self, speech):
        lengths = torch.full((speech.shape[0],), speech.shape[-1])
        packed = torch.nn.utils.rnn.pack_padded_sequence(speech.unsqueeze(-1), lengths, batch_first=True)
        return packed.data.to("cuda")
