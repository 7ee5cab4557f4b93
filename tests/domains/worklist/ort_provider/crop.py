import argparse

import onnxruntime
import torch


class Detector:
    def __init__(self, model_path, device="cuda"):
        providers = ["CUDAExecutionProvider"] if device == "cuda" else ["CPUExecutionProvider"]
        self.session = onnxruntime.InferenceSession(model_path, providers=providers)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("image")
    args = parser.parse_args()
    detector = Detector("det.onnx")
    landmarks = torch.zeros(68, 2).to("cuda")
    print(args.image, detector.session.get_providers(), landmarks.shape)


if __name__ == "__main__":
    main()
