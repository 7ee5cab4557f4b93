"""Scores a folder of videos on the dimensions given: python evaluate.py --dims consistency"""
import argparse

from scoring import Evaluator

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--dims", nargs="+", default=["consistency"])
    args = parser.parse_args()
    print(Evaluator().evaluate(args.dims))
