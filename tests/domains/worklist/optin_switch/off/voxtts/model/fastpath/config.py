import argparse
from dataclasses import dataclass

import torch


@dataclass
class EngineArgs:
    """The fast engine's settings, also as command-line options of a server built on it."""

    device: str = "cuda"
    max_batch: int = 8

    @staticmethod
    def add_cli_args(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
        parser.add_argument("--max-batch", type=int, default=8)
        return parser

    def placement(self):
        return torch.device(self.device if torch.cuda.is_available() else "cpu")
