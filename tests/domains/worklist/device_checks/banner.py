"""A demo's start-up banner: which GPU, how much memory."""
import torch

total_gb = torch.cuda.get_device_properties(0).total_memory / 2**30
print(f"GPU: {torch.cuda.get_device_name()} ({total_gb:.0f} GB), {torch.cuda.device_count()} visible")
