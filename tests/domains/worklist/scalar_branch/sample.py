import torch

from unet import TinyUNet

if __name__ == "__main__":
    model = TinyUNet().to("npu")
    x = torch.randn(2, 4, device="npu")
    for t in torch.linspace(999, 0, 10, device="npu"):
        x = model(x, t)
    print(x.shape)
