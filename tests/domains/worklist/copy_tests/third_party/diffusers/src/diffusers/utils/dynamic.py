import importlib


def get_class_from_dynamic_module(module_name, class_name):
    return getattr(importlib.import_module(module_name), class_name)
