"""The library's own consistency check over every model (its maintainers' tooling)."""
from transformers.models.bark.modeling_bark import BarkModel
from transformers.models.llama.modeling_llama import LlamaForCausalLM

if __name__ == "__main__":
    for cls in (BarkModel, LlamaForCausalLM):
        print(cls.__name__)
