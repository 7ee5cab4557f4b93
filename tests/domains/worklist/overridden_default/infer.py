import argparse

import torch

from talker.detector import FaceDetector
from talker.handlers import predict, warmup
from talker.finetune import restore
from talker.pipeline import make_pipeline
from talker.session import start
from talker.stream import ConfiguredPipeline, StreamPipeline, snapshot
from talker.weights import load_state_dict


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--video")
    parser.add_argument("--audio")
    args = parser.parse_args()
    pipeline = make_pipeline("audio.pt", "landmarks.pt")
    preview = FaceDetector(device=torch.device("npu"))
    warmup(pipeline)
    restore(load_state_dict(pipeline, "talker.safetensors", "cpu"), "head.pt")
    stream = StreamPipeline(pipeline, pipeline), ConfiguredPipeline(pipeline), snapshot(pipeline)
    print(start(pipeline), stream)
    print(predict(pipeline, {"frames": None, "audio": None}), preview, args)


if __name__ == "__main__":
    main()
