"""Runs the captioner from its TensorRT-LLM engine."""
import argparse

import tensorrt_llm
import torch
from tensorrt_llm.runtime import ModelRunner


def caption(engine_dir, prompt):
    tensorrt_llm.logger.set_level("error")
    runner = ModelRunner.from_dir(engine_dir)
    out = runner.generate([prompt])
    torch.cuda.synchronize()
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine_dir")
    parser.add_argument("--prompt", default="a cat")
    args = parser.parse_args()
    print(caption(args.engine_dir, args.prompt))
