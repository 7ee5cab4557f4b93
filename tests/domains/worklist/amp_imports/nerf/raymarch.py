"""Ray marching through an occupancy grid, as instant-ngp style NeRFs do it."""
import torch
from torch.autograd import Function
from torch.cuda.amp import custom_bwd, custom_fwd


def _march(rays_o, rays_d, step):
    t = torch.arange(0, 1, step, device=rays_o.device)
    return rays_o[:, None] + rays_d[:, None] * t[None, :, None]


class _MarchRays(Function):
    @staticmethod
    @custom_fwd(cast_inputs=torch.float32)
    def forward(ctx, rays_o, rays_d, step=0.01):
        return _march(rays_o, rays_d, step)


class _CompositeRays(Function):
    @staticmethod
    @custom_fwd
    def forward(ctx, sigmas, rgbs):
        weights = torch.softmax(sigmas, dim=-1)
        ctx.save_for_backward(weights, rgbs)
        return (weights[..., None] * rgbs).sum(dim=-2)

    @staticmethod
    @custom_bwd
    def backward(ctx, grad):
        weights, rgbs = ctx.saved_tensors
        return None, grad[..., None, :] * weights[..., None]


march_rays = _MarchRays.apply
composite_rays = _CompositeRays.apply
