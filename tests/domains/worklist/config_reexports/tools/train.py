import argparse

from mmengine.config import Config
from mmengine.runner import Runner


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("config")
    parser.add_argument("--launcher", default="none")
    args = parser.parse_args()
    Runner.from_cfg(Config.fromfile(args.config)).train()


if __name__ == "__main__":
    main()
