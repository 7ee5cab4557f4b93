import argparse

from models import zoo
from models.loader import PinnedLoader


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="interp_small")
    args = parser.parse_args()
    model = zoo.__dict__[args.model]()
    for batch in PinnedLoader(list(range(8)), batch_size=2):
        print(model, batch)


if __name__ == "__main__":
    main()
