"""The project's own script beside its copy of the library: Fisher information of a LLaMA model."""
import torch
from transformers import LlamaForCausalLM

if __name__ == "__main__":
    model = LlamaForCausalLM()
    torch.cuda.synchronize()
