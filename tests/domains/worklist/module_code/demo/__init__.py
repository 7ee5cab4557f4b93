from . import fp16, platform
