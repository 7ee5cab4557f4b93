import torch


class Prompter:
    def encode_prompt(self, prompt, device="cuda"):
        ids = torch.tensor([ord(ch) for ch in prompt], device=device)
        return ids.float()
