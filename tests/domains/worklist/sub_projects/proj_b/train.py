import os

from parallel import init

if __name__ == "__main__":
    init(int(os.environ.get("LOCAL_RANK", 0)))
