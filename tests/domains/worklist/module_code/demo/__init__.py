from . import blocks, fp16, platform
