import sys

from wrappers import Captioner, Deleter, HalfCaptioner, Reloader


def main(path):
    first = Captioner(path)
    print(first.answer(None, "Describe the image."))
    second = Reloader(path, first)
    third = Deleter(path, {path: second})
    print(second, third, HalfCaptioner(path))


if __name__ == "__main__":
    main(sys.argv[1])
