import torch.distributed as dist
from diffusers.models.attention_processor import Attention

from imgkit import CrossAttention, get_rank
from imgkit.nets.blocks import LabelEmbedder  # noqa: F401  (kept for old configs)


class Processor:
    def __call__(self, attn: Attention, hidden):
        return attn.to_out[0](hidden)


def main():
    block = CrossAttention()
    sizes = [None]
    dist.all_gather(sizes, get_rank())
    print(block, Processor())


if __name__ == "__main__":
    main()
