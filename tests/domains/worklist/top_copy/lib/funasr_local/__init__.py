"""A copy of FunASR's package, trimmed to what the tokenizer needs."""
import importlib
import pkgutil


def import_submodules(package):
    package = importlib.import_module(package)
    for _, name, _ in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        try:
            importlib.import_module(name)
        except Exception:
            pass


import_submodules(__name__)

from funasr_local.auto.auto_model import AutoModel
