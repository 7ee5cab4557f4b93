import torch
import torch.nn as nn
import torch.nn.functional as F


class PairLoss(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden)  # a constructor: no dtype note

    def forward(self, chosen, rejected, mask):
        logits = self.proj(chosen).float() - self.proj(rejected).float()
        loss = -F.logsigmoid(logits)  # dtype list names fp32: a hint
        loss = torch.where(mask, loss, 0.0)  # the 8-D note says nothing here: a hint
        if torch.is_complex(loss):  # a predicate: no dtype note
            loss = loss.real
        total = torch.sum(loss, dtype=torch.float32)  # the `dtype` note applies: an information
        norm = torch.linalg.norm(loss.double())  # float64 visibly outside the list: ASC221
        return total / norm
