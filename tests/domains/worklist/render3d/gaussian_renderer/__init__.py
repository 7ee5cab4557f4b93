"""Renders a set of 3D Gaussians from one camera."""
import math

import torch
from diff_gaussian_rasterization import GaussianRasterizationSettings, GaussianRasterizer


def render(camera, gaussians, background, scale=1.0):
    tanfovx = math.tan(camera.fov_x * 0.5)
    tanfovy = math.tan(camera.fov_y * 0.5)
    settings = GaussianRasterizationSettings(
        image_height=int(camera.height),
        image_width=int(camera.width),
        tanfovx=tanfovx,
        tanfovy=tanfovy,
        bg=background,
        scale_modifier=scale,
        viewmatrix=camera.view,
        projmatrix=camera.proj,
        sh_degree=gaussians.sh_degree,
        campos=camera.center,
        prefiltered=False,
        debug=False,
    )
    rasterizer = GaussianRasterizer(raster_settings=settings)
    image, radii = rasterizer(
        means3D=gaussians.xyz,
        means2D=torch.zeros_like(gaussians.xyz),
        shs=gaussians.features,
        opacities=gaussians.opacity,
        scales=gaussians.scaling,
        rotations=gaussians.rotation,
    )
    return {"render": image, "radii": radii}
