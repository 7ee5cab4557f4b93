from .runner import FastLLM
from . import sampling
