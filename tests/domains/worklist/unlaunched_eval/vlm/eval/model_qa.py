# an early QA evaluation: no script runs it any more
import argparse

import torch

from vlm import VLM


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-path")
    args = parser.parse_args()
    torch.cuda.set_device(0)
    model = VLM().cuda()
    print("qa", args.model_path, model(torch.randn(1, 16).cuda()))


if __name__ == "__main__":
    main()
