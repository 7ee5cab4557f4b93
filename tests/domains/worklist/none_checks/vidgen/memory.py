import torch

gpu = torch.device(f"cuda:{torch.cuda.current_device()}")
