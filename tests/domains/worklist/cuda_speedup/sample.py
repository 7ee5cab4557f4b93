import torch
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

if torch.cuda.is_available():
    # compiled on GPUs only: the eager kernel is slow but correct elsewhere
    flex_attention = torch.compile(flex_attention)


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def main():
    q = k = v = torch.randn(1, 4, 128, 64)
    if torch.cuda.is_available():
        q, k, v = q.cuda(), k.cuda(), v.cuda()
    mask = create_block_mask(causal, 1, 4, 128, 128, device=q.device)
    print(flex_attention(q, k, v, block_mask=mask).shape)


if __name__ == "__main__":
    main()
