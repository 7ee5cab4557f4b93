import torch
import torch.distributed as dist
import yunchang

from ring_flash_attn import ring_attention


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    q = torch.randn(1, 8, 128, 64, device="cuda")
    print(ring_attention(q, q, q).shape, yunchang.__name__)


if __name__ == "__main__":
    main()
