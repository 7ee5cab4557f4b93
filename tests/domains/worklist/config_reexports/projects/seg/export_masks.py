"""Run from projects/seg/: an old exporter whose loader the datasets package no longer has."""
import torch
from datasets import get_loader


def main():
    for batch in get_loader("val"):
        print(batch.cuda().sum())


if __name__ == "__main__":
    main()
