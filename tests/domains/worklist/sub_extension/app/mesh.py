class MeshRender:
    def __init__(self, mode="cr"):
        if mode == "cr":
            import rast as cr
            self.raster = cr
        else:
            raise ValueError(mode)

    def render(self, pos, tri):
        return self.raster.rasterize(pos, tri, (512, 512))
