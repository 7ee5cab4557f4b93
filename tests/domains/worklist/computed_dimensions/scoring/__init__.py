import importlib


class Evaluator:
    def evaluate(self, dims):
        results = {}
        for dim in dims:
            module = importlib.import_module(f"scoring.{dim}")
            results[dim] = getattr(module, f"compute_{dim}")()
        return results
