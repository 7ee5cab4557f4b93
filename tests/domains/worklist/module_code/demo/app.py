import torch

from demo.platform import is_sm_at_least_100, pick_device

DESCRIPTION = "# Text-to-image demo"
if not torch.cuda.is_available():
    DESCRIPTION += "\n<p>Running on CPU: this demo is slow.</p>"

CACHE_EXAMPLES = torch.cuda.is_available() and False
DEVICE = torch.device("cuda:0") if torch.cuda.is_available() else torch.device("cpu")


def generate(prompt: str):
    dtype = torch.float8_e4m3fn if is_sm_at_least_100() else torch.bfloat16
    return torch.randn(1, 4, 64, 64, device=pick_device()).to(dtype)


if __name__ == "__main__":
    print(DESCRIPTION, CACHE_EXAMPLES, generate("a cat").shape)
