from .manager import ModelManager
from .prompter import Prompter


class AvatarPipeline:
    def __init__(self, device="cuda"):
        self.device = device
        self.prompter = Prompter()

    @staticmethod
    def from_model_manager(manager: ModelManager, device):
        return AvatarPipeline(device=device)

    def encode_prompt(self, prompt):
        return self.prompter.encode_prompt(prompt, device=self.device)

    def __call__(self, prompt):
        return self.encode_prompt(prompt).sum()
