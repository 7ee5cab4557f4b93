"""Sampling script: plain torch, none of the pinned GPU helpers."""
import torch


def main():
    x = torch.randn(4, 4)
    print(x.softmax(-1))


if __name__ == "__main__":
    main()
