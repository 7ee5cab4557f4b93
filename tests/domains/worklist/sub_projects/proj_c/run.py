import argparse
import importlib

if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="model_x")
    args = p.parse_args()
    importlib.import_module(args.model).build()
