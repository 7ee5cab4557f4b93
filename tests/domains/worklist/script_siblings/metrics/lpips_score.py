import torch


def lpips_score(a, b, device):
    return (a.to(device) - b.to(device)).abs().mean().item()


def main():
    videos1 = torch.zeros(2, 8, 3, 64, 64)
    videos2 = torch.ones(2, 8, 3, 64, 64)
    print(lpips_score(videos1, videos2, torch.device("cuda")))


if __name__ == "__main__":
    main()
