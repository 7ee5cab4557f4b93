"""One training step, as the end-to-end test opens it in VS Code."""
import torch
import torch_npu
import torch as th


def build(model):
    model = model.npu()
    return torch.nn.DataParallel(model)


def step(model, batch):
    batch = batch.to("npu")
    loss = model(batch).sum()
    loss.backward()
    th.npu.synchronize()
    if torch.npu.is_available():
        torch.npu.set_per_process_memory_fraction(0.9)
    return loss
