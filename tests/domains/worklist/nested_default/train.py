import torch


def train(latents, steps, share):
    for _ in range(steps):
        if share:
            def generate_noise(bs, channel, length, ratio=0.5, generator=None, device="cuda", dtype=None):
                noise = torch.randn(bs, channel, length, generator=generator, device=device, dtype=dtype)
                return noise * ratio

            noise = generate_noise(*latents.size(), ratio=0.3, device=latents.device)
        else:
            noise = torch.randn(latents.size(), device=latents.device)

        def make_mask(n, device="cuda"):
            return torch.ones(n, device=device)

        mask = make_mask(4)
        keep = [make_mask]

        def positional(n, device="cuda"):
            return torch.zeros(n, device=device)

        z = positional(3, latents.device)
    return noise, mask, keep, z


if __name__ == "__main__":
    train(torch.randn(1, 2, 3), 2, True)
