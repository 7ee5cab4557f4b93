import torch


def build(n):
    return torch.ones(n)


if __name__ == "__main__":
    q = torch.randn(1, 2).cuda()
    print(build(3), q)
