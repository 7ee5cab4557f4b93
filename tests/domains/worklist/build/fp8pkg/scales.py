import torch


def quantize_q(q):
    scale = q.abs().amax() / 448.0
    return (q / scale).to(torch.float8_e4m3fn), scale


def quantize_k(k):
    scale = k.abs().amax() / 448.0
    return (k / scale).to(torch.float8_e4m3fn), scale
