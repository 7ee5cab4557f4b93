import torch


def restore(net, path):
    # torch's Module.load_state_dict, not talker.weights.load_state_dict
    net.load_state_dict(torch.load(path, map_location="cpu"))
    return net
