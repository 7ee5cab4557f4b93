"""Sampling helpers: an inductor setting at import time (nothing here
compiles) and the same restricted API in two functions."""
import torch
import torch._inductor.config as inductor_config

inductor_config.coordinate_descent_tuning = True


def positions(n):
    return torch.linspace(0, 1, n)


def timesteps(n):
    return torch.linspace(0, 1000, n)
