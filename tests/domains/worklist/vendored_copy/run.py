import torch
from transformers import LlamaForCausalLM

if __name__ == "__main__":
    model = LlamaForCausalLM().to("cuda")
