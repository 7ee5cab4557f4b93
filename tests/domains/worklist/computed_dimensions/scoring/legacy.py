from .tracker import OldTracker, Tracker


def warm_up(net):
    net.eval()
    return Tracker
