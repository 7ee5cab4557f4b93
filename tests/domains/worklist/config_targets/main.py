import argparse

import yaml

from ldm.util import instantiate_from_config

if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--config", default="configs/zero123.yaml")
    a = p.parse_args()
    model = instantiate_from_config(yaml.safe_load(open(a.config))["model"])
    print(model)
