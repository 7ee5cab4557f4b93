from .sampler import Sampler
from .legacy import LegacySampler
