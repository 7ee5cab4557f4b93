from talker.masks_a import block_mask


def mask_for(n, device):
    return block_mask(n, device=device)
