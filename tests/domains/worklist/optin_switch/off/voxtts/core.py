import os

from .model import Engine
from .model.decoder import Decoder


class Chat:
    def __init__(self):
        self.engine = None

    def load(self, compile=False, use_fast=False):
        """Loads the models; use_fast serves the decoder with the fast engine."""
        return self._load(
            compile=compile,
            use_fast=use_fast,
            **{"path": os.path.join("checkpoints", "decoder.pt")},
        )

    def _load(self, compile=False, use_fast=False, path=None):
        self.engine = Engine(path, use_fast=use_fast)
        self.engine.load_weights()
        self.decoder = Decoder.from_pretrained(os.path.join("checkpoints", "decoder"))
        return True

    def infer(self, text):
        engine = self.engine
        if engine.is_fast:
            from .model.fastpath import sampling

            return engine.llm.generate(text, sampling.greedy())
        return engine.generate(text)
