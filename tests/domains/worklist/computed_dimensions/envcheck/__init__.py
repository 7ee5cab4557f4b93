import importlib

REQUIRED = ("numpy", "imageio")


def missing_packages():
    missing = []
    for name in REQUIRED:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing
