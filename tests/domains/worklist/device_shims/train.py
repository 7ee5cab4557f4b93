from trainer.device_utils import init_device

if __name__ == "__main__":
    print(init_device(False))
