import argparse

from src.edgeflow.pipeline import Pipeline


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--control", default="hed")
    args = parser.parse_args()
    Pipeline(args.control).run()


if __name__ == "__main__":
    main()
