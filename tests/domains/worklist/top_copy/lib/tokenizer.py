import argparse

import torch

from funasr_local import AutoModel


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wav", required=True)
    args = parser.parse_args()
    model = AutoModel(model="checkpoints/paraformer-streaming")
    print(model.infer_encoder(torch.zeros(1, 16000)), args.wav)


if __name__ == "__main__":
    main()
