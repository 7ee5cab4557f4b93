"""Gradio demo, started with `python -m vidgen.serve.web_demo`: the module
code parses the command line and serves, with no `__main__` block."""
import argparse

import torch

from vidgen.npu_config import npu_config
from vidgen.blocks import VideoBlock

parser = argparse.ArgumentParser()
parser.add_argument("--dim", type=int, default=64)
args = parser.parse_args()

device = torch.cuda.current_device()
block = VideoBlock(args.dim).to(device)
print(npu_config, block)
