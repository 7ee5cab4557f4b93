import argparse
import importlib

from diffusers import MelPipeline


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prompt", required=True)
    parser.add_argument("--postprocess", default="")
    args = parser.parse_args()
    pipe = MelPipeline()
    out = pipe(args.prompt)
    if args.postprocess:
        out = importlib.import_module(args.postprocess).run(out)
    print(out)


if __name__ == "__main__":
    main()
