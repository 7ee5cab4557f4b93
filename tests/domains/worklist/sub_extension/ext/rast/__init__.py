from .render import rasterize
