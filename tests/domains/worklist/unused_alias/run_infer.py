import torch

from models.pipeline import encoder_class, load

if __name__ == "__main__":
    print(encoder_class("T5EncoderModel"))
    load(torch.nn.Linear(2, 2))
