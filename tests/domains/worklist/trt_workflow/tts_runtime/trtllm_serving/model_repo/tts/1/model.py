"""Triton python backend of the speech model's TensorRT-LLM engine."""
import tensorrt_llm
import torch


class TritonPythonModel:
    def initialize(self, args):
        self.device = torch.device("cuda")
        self.runner = tensorrt_llm.runtime.ModelRunner.from_dir(args["engine_dir"])

    def execute(self, requests):
        return [self.runner.generate(r) for r in requests]
