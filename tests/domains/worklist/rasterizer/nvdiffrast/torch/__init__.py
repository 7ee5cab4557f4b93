from .ops import texture
