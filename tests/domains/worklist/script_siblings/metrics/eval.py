"""Scores generated videos: python metrics/eval.py --gt DIR --pred DIR"""
import argparse

import torch
from lpips_score import lpips_score


def main(args):
    device = torch.device("cuda")
    print(lpips_score(torch.load(args.gt), torch.load(args.pred), device))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--gt")
    parser.add_argument("--pred")
    main(parser.parse_args())
