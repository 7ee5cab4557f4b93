import torch


def parallelize(model):
    # used through an alias: runs
    return model.to(f"cuda:{torch.cuda.device_count() - 1}")


def shard(model):
    # imported under an alias nothing uses: never runs
    return model.to("cuda:1")
