from safetensors.torch import load_file


def load_state_dict(model, path, device="cuda", strict=True):
    # every caller names the device as its third argument; the
    # `net.load_state_dict(...)` calls elsewhere are torch's method
    state = load_file(path, device)
    model.load_state_dict(state, strict=strict)
    return model
