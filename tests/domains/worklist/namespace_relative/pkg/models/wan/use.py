from ...mask import build


def run():
    return build(4)
