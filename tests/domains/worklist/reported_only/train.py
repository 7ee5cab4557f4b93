import argparse
import logging

import torch

logger = logging.getLogger(__name__)


def describe():
    # the answers only go into messages: they read False / 0 on the NPU
    print(f"CUDA available: {torch.cuda.is_available()}")
    logger.info("visible devices: %d", torch.cuda.device_count())
    print("backend: " + ("cuda" if torch.cuda.is_available() else "cpu"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    describe()
    # these decide something: they stay
    world = torch.cuda.device_count()
    print("GPU 0:", torch.cuda.get_device_name(0))
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = torch.nn.Linear(8, 8).to(device)
    for _ in range(args.steps * world):
        model(torch.randn(2, 8, device=device))


if __name__ == "__main__":
    main()
