import argparse

from evalkit.config import supported_VLM


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="MME")
    parser.add_argument("--model", required=True)
    args = parser.parse_args()
    model = supported_VLM[args.model]()
    print(model.generate(f"Describe the first image of {args.data}."))


if __name__ == "__main__":
    main()
