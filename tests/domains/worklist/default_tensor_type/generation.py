"""Builds the model in half precision on the GPU, LLaMA style."""
import torch


def build(model_cls, args):
    torch.set_default_tensor_type(torch.cuda.HalfTensor)
    model = model_cls(args)
    torch.set_default_tensor_type(torch.FloatTensor)
    return model


def scratch(n):
    return torch.cuda.HalfTensor(n)
