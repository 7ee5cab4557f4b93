import torch


def keeps_config(init):
    """Records the constructor's arguments (device included) in self.config."""

    def wrapper(self, *args, **kwargs):
        self.config = kwargs
        init(self, *args, **kwargs)

    return wrapper


class StreamPipeline:
    def __init__(self, encoder, decoder, device=torch.device("cuda")):
        # the device is never read: the session places the modules
        self.encoder = encoder
        self.decoder = decoder


class ConfiguredPipeline:
    @keeps_config
    def __init__(self, encoder, device="cuda"):
        # the decorator keeps device in self.config
        self.encoder = encoder


def snapshot(model, device="cuda"):
    # every argument goes into the snapshot
    return dict(locals())
