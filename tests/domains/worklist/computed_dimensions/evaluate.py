"""Scores a folder of videos on the dimensions given: python evaluate.py --dims consistency"""
import argparse

from envcheck import missing_packages
from scoring import Evaluator

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--dims", nargs="+", default=["consistency"])
    args = parser.parse_args()
    if missing_packages():
        raise SystemExit("missing packages")
    print(Evaluator().evaluate(args.dims))
