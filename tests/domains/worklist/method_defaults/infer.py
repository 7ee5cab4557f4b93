import argparse

from avatar.manager import ModelManager
from avatar.pipeline import AvatarPipeline


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="npu")
    parser.add_argument("--weights", nargs="+", default=["dit.pt"])
    args = parser.parse_args()
    manager = ModelManager(device="cpu")
    manager.load_models(args.weights, device="cpu")
    pipe = AvatarPipeline.from_model_manager(manager, device=args.device)
    print(pipe("a portrait that talks"))


if __name__ == "__main__":
    main()
