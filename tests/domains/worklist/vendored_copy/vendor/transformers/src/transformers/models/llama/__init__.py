from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from .modeling_llama import LlamaForCausalLM
