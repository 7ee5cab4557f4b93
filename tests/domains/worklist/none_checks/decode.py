import torch

from vidgen.kv_cache import decode_attention, decode_required

if __name__ == "__main__":
    q = torch.randn(1, 1, 8, 64)
    cache = torch.randn(1, 128, 8, 64)
    lens = torch.tensor([17], dtype=torch.int32)
    print(decode_attention(q, cache, cache, lens, 16).shape, decode_required(q, cache, cache, lens).shape)
