"""Builds a plugin from its C++/CUDA sources on first use."""
import os

import torch.utils.cpp_extension

_cached_plugins = dict()


def get_plugin(module_name, sources, **build_kwargs):
    if module_name in _cached_plugins:
        return _cached_plugins[module_name]
    module = torch.utils.cpp_extension.load(name=module_name, sources=sources, verbose=False, **build_kwargs)
    _cached_plugins[module_name] = module
    return module


def source_dir():
    return os.path.dirname(__file__)
