import rast_kernel
import torch


def rasterize(pos, tri, resolution):
    return rast_kernel.rasterize_image(pos[0], tri, resolution[1], resolution[0])
