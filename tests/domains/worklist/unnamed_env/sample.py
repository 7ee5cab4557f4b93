import argparse

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prompt", required=True)
    args = parser.parse_args()
    latents = torch.randn(1, 4, 64, 64, device="cuda")
    print(args.prompt, latents.shape)


if __name__ == "__main__":
    main()
