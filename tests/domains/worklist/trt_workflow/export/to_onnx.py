"""Exports the denoiser to ONNX for a TensorRT engine."""
import torch
from polygraphy.backend.onnx.loader import fold_constants


def export(model, path):
    x = torch.randn(1, 4, 64, 64).cuda()
    torch.onnx.export(model, (x,), path, opset_version=17)
    fold_constants(path)


if __name__ == "__main__":
    export(torch.nn.Conv2d(4, 4, 3), "denoiser.onnx")
