"""Helpers the test-suite uses to build and time a model."""
import time

import torch

from ..model import TinyDiT


def timed_forward(model, x):
    torch.cuda.synchronize()
    start = time.perf_counter()
    y = model(x)
    torch.cuda.synchronize()
    return y, time.perf_counter() - start


def small_model():
    return TinyDiT(16).to("cuda")
