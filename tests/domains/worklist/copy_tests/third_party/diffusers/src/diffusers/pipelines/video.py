import torch


class VideoPipeline:
    def enable_sequential_cpu_offload(self, gpu_id=0):
        return torch.device(f"cuda:{gpu_id}")
