"""Builds the TensorRT-LLM engine of the captioner."""
import argparse

import tensorrt_llm
from tensorrt_llm.builder import Builder


def build(model_dir, out_dir):
    builder = Builder()
    config = builder.create_builder_config(precision="float16")
    engine = builder.build_engine(tensorrt_llm.Module(), config)
    engine.save(out_dir)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir")
    parser.add_argument("--out_dir")
    args = parser.parse_args()
    build(args.model_dir, args.out_dir)
