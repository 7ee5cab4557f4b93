"""Turns TF32 matmuls on where the GPU has them (Ampere and newer)."""
import torch

if torch.cuda.get_device_properties(0).major >= 8:
    torch.backends.cuda.matmul.allow_tf32 = True
