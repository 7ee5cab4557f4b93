from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from .modeling_bark import BarkModel
