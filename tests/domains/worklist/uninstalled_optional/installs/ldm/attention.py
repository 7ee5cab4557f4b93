import torch
import torch.nn as nn

try:
    import xformers
    import xformers.ops

    XFORMERS_IS_AVAILABLE = True
except:  # noqa: E722
    XFORMERS_IS_AVAILABLE = False


class CrossAttention(nn.Module):
    def forward(self, q, k, v):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v)


class MemoryEfficientCrossAttention(nn.Module):
    def forward(self, q, k, v):
        return xformers.ops.memory_efficient_attention(q, k, v, attn_bias=None)


class BasicTransformerBlock(nn.Module):
    ATTENTION_MODES = {"softmax": CrossAttention, "softmax-xformers": MemoryEfficientCrossAttention}

    def __init__(self):
        super().__init__()
        mode = "softmax-xformers" if XFORMERS_IS_AVAILABLE else "softmax"
        self.attn = self.ATTENTION_MODES[mode]()

    def forward(self, x):
        return self.attn(x, x, x)
