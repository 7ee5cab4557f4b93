import nvdiffrast.torch as dr
import torch


class TextureBaker:
    def __init__(self):
        self.ctx = dr.RasterizeCudaContext()

    def bake(self, pos, tri, uv, resolution):
        rast, _ = dr.rasterize(self.ctx, pos, tri, resolution=resolution)
        texc, _ = dr.interpolate(uv, rast, tri)
        return texc
