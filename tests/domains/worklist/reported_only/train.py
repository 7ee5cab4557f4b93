import argparse
import logging
import warnings

import torch

logger = logging.getLogger(__name__)


def printt(fmt, *args):
    print(fmt % args if args else fmt, flush=True)


def describe():
    # the answers only go into messages: they read False / 0 on the NPU
    print(f"CUDA available: {torch.cuda.is_available()}")
    logger.info("visible devices: %d", torch.cuda.device_count())
    print("backend: " + ("cuda" if torch.cuda.is_available() else "cpu"))
    printt("cuda_is_available: %s", torch.cuda.is_available())


def pick_dtype(model):
    if next(model.parameters()).device == torch.device("cpu"):
        # a branch that only warns: nothing is decided on the answer
        if torch.cuda.is_available():
            warnings.warn("running on the CPU while CUDA is available")
    # one gate in one statement: one decision about the dtype
    fp16 = torch.cuda.is_available() and torch.cuda.get_device_capability()[0] > 7
    return torch.float16 if fp16 else torch.float32


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    describe()
    # these decide something: they stay
    world = torch.cuda.device_count()
    print("GPU 0:", torch.cuda.get_device_name(0))
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = torch.nn.Linear(8, 8).to(device, pick_dtype(torch.nn.Linear(8, 8)))
    for _ in range(args.steps * world):
        model(torch.randn(2, 8, device=device))


if __name__ == "__main__":
    main()
