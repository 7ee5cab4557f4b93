"""Evaluation wrappers: each loads a captioning model and answers one prompt."""
import gc

import torch
from transformers import AutoModel, AutoTokenizer


class Captioner:
    def __init__(self, path):
        self.model = AutoModel.from_pretrained(path, trust_remote_code=True).eval().cuda()
        self.tokenizer = AutoTokenizer.from_pretrained(path)
        # nothing was freed yet: the cache holds nothing to return
        torch.cuda.empty_cache()

    def answer(self, image, prompt):
        out = self.model.chat(image, prompt, self.tokenizer)
        # frees the activations of this answer
        torch.cuda.empty_cache()
        return out


class Reloader:
    def __init__(self, path, previous):
        previous.model.cpu()
        gc.collect()
        # the previous model's weights left the device: this frees them
        torch.cuda.empty_cache()
        self.model = AutoModel.from_pretrained(path).cuda()


class Deleter:
    def __init__(self, path, cache):
        del cache[path]
        torch.cuda.empty_cache()
        self.model = AutoModel.from_pretrained(path).cuda()


class HalfCaptioner:
    def __init__(self, path):
        self.model = AutoModel.from_pretrained(path).cuda().half()
        # the float32 copy converted on the device was just freed: this returns it
        torch.cuda.empty_cache()
