from talker.masks_b import block_mask


def default_mask(n):
    return block_mask(n)
