import torch


def build(n):
    return torch.ones(n)


def timed(fn):
    return fn


if __name__ == "__main__":
    q = torch.randn(1, 2).cuda()

    @timed
    def twice(x):
        # a decorated helper of this demo: it runs only with it
        return (x * 2).cuda()

    print(build(3), twice(q))
