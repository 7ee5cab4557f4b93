"""Extracts pose maps for the control-net training set."""
import argparse

import numpy as np

from annotator.wholebody import Wholebody


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rank", type=int, default=0)
    args = parser.parse_args()
    estimator = Wholebody(args.rank)
    print(estimator(np.zeros((1, 3, 640, 640), dtype=np.float32)))


if __name__ == "__main__":
    main()
