"""The same inductor setting where the file compiles its model."""
import torch
import torch._inductor.config as inductor_config

inductor_config.coordinate_descent_tuning = True


def build(model):
    return torch.compile(model, mode="max-autotune")
