import torch

from .backends import ops


def offload_step(model, encoder, batch):
    encoder.to("cpu")
    torch.cuda.empty_cache()
    latents = model(batch.to("cuda"))
    model.to("cpu")
    torch.cuda.empty_cache()
    out = ops.to_device(ops.dequantize(latents, 0.5))
    torch.cuda.empty_cache()
    return out.to("cuda")


def warm_up(model):
    torch.cuda.empty_cache()
    return model
