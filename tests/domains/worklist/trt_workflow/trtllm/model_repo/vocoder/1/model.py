"""Triton python backend of the vocoder: a TensorRT engine on one GPU."""
import tensorrt as trt
import torch


class TritonPythonModel:
    def initialize(self, args):
        self.device = torch.device(f"cuda:{args['model_instance_device_id']}")
        self.stream = torch.cuda.Stream(self.device)
        with open(args["engine_path"], "rb") as f:
            self.engine = trt.Runtime(trt.Logger(trt.Logger.ERROR)).deserialize_cuda_engine(f.read())

    def execute(self, requests):
        with torch.cuda.stream(self.stream):
            return [self.engine.create_execution_context() for _ in requests]
