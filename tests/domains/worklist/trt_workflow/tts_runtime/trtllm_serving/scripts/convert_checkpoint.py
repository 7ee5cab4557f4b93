"""Converts the speech model's checkpoint for its TensorRT-LLM engine."""
import argparse

import torch
from tensorrt_llm import str_dtype_to_torch


def convert(ckpt, out, dtype="float16"):
    weights = torch.load(ckpt, map_location="cpu")
    torch.save({k: v.to(str_dtype_to_torch(dtype)) for k, v in weights.items()}, out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("ckpt")
    parser.add_argument("out")
    args = parser.parse_args()
    convert(args.ckpt, args.out)
