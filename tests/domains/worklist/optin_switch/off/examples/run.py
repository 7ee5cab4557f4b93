import argparse

import voxtts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--text", required=True)
    args = parser.parse_args()
    chat = voxtts.Chat()
    chat.load(compile=False)
    print(chat.infer(args.text))


if __name__ == "__main__":
    main()
