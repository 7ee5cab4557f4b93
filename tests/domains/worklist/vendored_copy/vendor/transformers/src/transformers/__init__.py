from typing import TYPE_CHECKING

_import_structure = {"models.bark": ["BarkModel"], "models.llama": ["LlamaForCausalLM"]}

if TYPE_CHECKING:
    from .models.bark import BarkModel
    from .models.llama import LlamaForCausalLM
else:
    import sys
    from .utils import _LazyModule
    sys.modules[__name__] = _LazyModule(__name__, globals()["__file__"], _import_structure)
