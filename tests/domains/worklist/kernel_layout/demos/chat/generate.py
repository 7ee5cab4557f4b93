import torch

import tklib

if __name__ == "__main__":
    x = torch.randn(16, device="cuda")
    print(tklib.attention(x, x, x))
