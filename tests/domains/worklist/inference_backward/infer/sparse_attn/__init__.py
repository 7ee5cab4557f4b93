from .interface import sparse_attention
