import argparse

import torch

from talker.detector import FaceDetector
from talker.handlers import predict, warmup
from talker.pipeline import make_pipeline


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--video")
    parser.add_argument("--audio")
    args = parser.parse_args()
    pipeline = make_pipeline("audio.pt", "landmarks.pt")
    preview = FaceDetector(device=torch.device("npu"))
    warmup(pipeline)
    print(predict(pipeline, {"frames": None, "audio": None}), preview, args)


if __name__ == "__main__":
    main()
