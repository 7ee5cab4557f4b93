import torch
from simple_knn._C import distCUDA2


class GaussianModel:
    def __init__(self, sh_degree):
        self.sh_degree = sh_degree
        self.xyz = torch.empty(0)

    def create_from_points(self, points):
        dist2 = torch.clamp_min(distCUDA2(points), 1e-7)
        self.scaling = torch.log(torch.sqrt(dist2))[..., None].repeat(1, 3)
        self.xyz = points
