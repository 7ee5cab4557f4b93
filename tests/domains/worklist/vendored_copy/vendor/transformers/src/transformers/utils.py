import importlib
import types


class _LazyModule(types.ModuleType):
    def __init__(self, name, file, structure):
        super().__init__(name)
        self._structure = structure

    def __getattr__(self, name):
        for mod, names in self._structure.items():
            if name in names:
                return getattr(importlib.import_module("." + mod, self.__name__), name)
        raise AttributeError(name)
