import torch

try:
    from exkernels import q4_matmul
except ImportError as e:
    _import_error = e

    def q4_matmul(*args, **kwargs):
        raise ValueError(f"the exkernels CUDA extension could not be imported: {_import_error}")


class QuantLinear(torch.nn.Module):
    def __init__(self, infeatures, outfeatures):
        super().__init__()
        self.register_buffer("qweight", torch.zeros(infeatures // 8, outfeatures, dtype=torch.int32))

    def forward(self, x):
        out = torch.empty(x.shape[:-1] + (self.qweight.shape[1],), dtype=x.dtype, device=x.device)
        q4_matmul(x, self.qweight, out)
        return out
