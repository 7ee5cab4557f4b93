"""Speech tokenizer session: ONNX Runtime picks its provider from CUDA's availability."""
import logging
from contextlib import nullcontext

import onnxruntime
import torch


class SpeechTokenizer:
    def __init__(self, model_path, load_trt=False, fp16=False):
        if torch.cuda.is_available() is False and (load_trt is True or fp16 is True):
            load_trt, fp16 = False, False
            logging.warning("no cuda device, set load_trt/fp16 to False")
        self.fp16 = fp16
        self.load_trt = load_trt
        self.session = onnxruntime.InferenceSession(
            model_path,
            providers=["CUDAExecutionProvider" if torch.cuda.is_available() else "CPUExecutionProvider"],
        )
        # the torch model beside it still needs its device chosen
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        if not torch.cuda.is_available():
            self.device = torch.device("cpu")
        # overlap the session with the next request's features where CUDA can
        self.context = torch.cuda.stream(torch.cuda.Stream()) if torch.cuda.is_available() else nullcontext()

    def __call__(self, feats):
        with self.context:
            return self.session.run(None, {"feats": feats.cpu().numpy()})[0]


def build(path):
    return SpeechTokenizer(path, load_trt=True)


if __name__ == "__main__":
    build("tokenizer.onnx")
