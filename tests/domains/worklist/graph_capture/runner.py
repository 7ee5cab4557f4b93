"""A decoding runner: CUDA-graph capture of the decode step, and a training
step whose autocast is picked from a dict by the configured precision."""
import contextlib

import torch


class DecodeRunner:
    def __init__(self, model, batch_size):
        self.model = model
        self.input_ids = torch.zeros(batch_size, 1, dtype=torch.long, device="cuda")
        self._graph = None

    def capture(self, memory_pool=None):
        torch.cuda.synchronize()
        self._graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self._graph, pool=memory_pool):
            self.output = self.model(self.input_ids)
        torch.cuda.synchronize()
        return self._graph

    def replay(self, input_ids):
        self.input_ids.copy_(input_ids)
        self._graph.replay()
        return self.output


def train_step(model, optimizer, batch, mixed_precision="bf16"):
    optimizer.zero_grad()
    with {
        "bf16": torch.cuda.amp.autocast(dtype=torch.bfloat16),
        "fp16": torch.cuda.amp.autocast(dtype=torch.float16),
        "fp32": contextlib.nullcontext(),
    }[mixed_precision]:
        loss = model(batch).mean()
    loss.backward()
    optimizer.step()
    return loss.item()
