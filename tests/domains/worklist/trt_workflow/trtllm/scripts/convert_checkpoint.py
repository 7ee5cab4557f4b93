"""Converts the captioner's Hugging Face checkpoint for the TensorRT-LLM build."""
import argparse

from tensorrt_llm.models import LLaMAForCausalLM


def convert(hf_dir, out_dir):
    model = LLaMAForCausalLM.from_hugging_face(hf_dir, dtype="float16")
    model.save_checkpoint(out_dir)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--hf_dir")
    parser.add_argument("--out_dir")
    args = parser.parse_args()
    convert(args.hf_dir, args.out_dir)
