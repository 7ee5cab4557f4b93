from functools import partial

from evalkit.models.alpha import AlphaVLM
from evalkit.models.beta import BetaVLM

alpha_series = {
    "Alpha-7B": partial(AlphaVLM, model_path="org/alpha-7b"),
    "Alpha-13B": partial(AlphaVLM, model_path="org/alpha-13b"),
}

beta_series = {
    "Beta-7B": partial(BetaVLM, model_path="org/beta-7b"),
}

supported_VLM = {}
for group in (alpha_series, beta_series):
    supported_VLM.update(group)
