import torch


class MelPipeline:
    def __init__(self):
        self.scale = torch.ones(1)

    def enable_sequential_cpu_offload(self, gpu_id=0):
        device = torch.device(f"cuda:{gpu_id}")
        self.scale = self.scale.to(device)

    def __call__(self, prompt):
        return self.scale * len(prompt)
