from .tracker import Tracker


def compute_consistency():
    return Tracker().track()
