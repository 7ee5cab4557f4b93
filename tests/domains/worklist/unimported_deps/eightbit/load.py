"""Loads the language model in 8 bits: transformers imports bitsandbytes."""
from transformers import AutoModelForCausalLM


def load(name):
    return AutoModelForCausalLM.from_pretrained(name, load_in_8bit=True)


if __name__ == "__main__":
    load("facebook/opt-125m")
