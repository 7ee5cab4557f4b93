import torch


def parallelize(model):
    # used through an alias: runs
    return model.to(f"cuda:{torch.cuda.device_count() - 1}")


def shard(model):
    # imported under an alias nothing uses: never runs
    return model.to("cuda:1")


def add_start_docstrings(*docstr):
    def decorate(fn):
        fn.__doc__ = "".join(docstr) + (fn.__doc__ or "")
        return fn

    return decorate


class T5EncoderModel(torch.nn.Module):
    @add_start_docstrings("Spreads the blocks over the GPUs.")
    def parallelize(self):
        # a docstring decorator registers nothing: this runs only if called
        return torch.cuda.device_count()
