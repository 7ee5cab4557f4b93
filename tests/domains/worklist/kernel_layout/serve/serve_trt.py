"""Serves the model with TensorRT-LLM (an NVIDIA engine)."""
import tensorrt_llm
import torch

runner = tensorrt_llm.runtime.ModelRunner.from_dir("engine", rank=0)
tokens = torch.tensor([[1, 2, 3]], device="cuda")
print(runner.generate(tokens))
torch.cuda.synchronize()
