import torch


def sample_frames(model, noise, steps=50, device="cuda", **extra):
    x = noise.to(device)
    for _ in range(steps):
        x = model(x, **extra)
    return x


def sample_spread(model, noise, device="cuda", **extra):
    return model(noise.to(device), **extra)


def run(model, noise, options, device):
    frames = sample_frames(model, noise, **options, device=device)
    return frames, sample_spread(model, noise, **options)
