"""Sample images from a trained class-conditional generator."""
import argparse

import torch

from model import Generator


def main(args):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = Generator(args.num_classes).to(device)
    model.load_state_dict(torch.load(args.ckpt, map_location="cpu"))
    model.eval()
    if args.compile:
        model = torch.compile(model, mode="reduce-overhead", fullgraph=True)
    if args.profile and args.num_samples > 0:
        torch.cuda.synchronize()
        start = torch.cuda.Event(enable_timing=True)
        start.record()
    if not args.debug:
        torch.backends.cudnn.benchmark = True
    else:
        torch.cuda.memory._record_memory_history(max_entries=100000)
    if args.cuda_graphs:
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            model(torch.zeros(1, dtype=torch.long, device=device))
    if args.fp16:
        torch.cuda.reset_peak_memory_stats()
    with torch.no_grad():
        labels = torch.arange(args.num_samples, device=device) % args.num_classes
        images = model(labels)
    torch.cuda.synchronize()
    torch.save(images.cpu(), args.out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", type=str, required=True)
    parser.add_argument("--out", type=str, default="samples.pt")
    parser.add_argument("--num-classes", type=int, default=1000)
    parser.add_argument("--num-samples", type=int, default=16)
    parser.add_argument("--compile", action="store_true", default=False)
    parser.add_argument("-p", "--profile", action="store_true", help="time the sampling")
    parser.add_argument("--debug", action="store_true")
    parser.add_argument("--cuda-graphs", action="store_true")
    parser.add_argument("--fp16", action="store_true", default=True)
    main(parser.parse_args())
