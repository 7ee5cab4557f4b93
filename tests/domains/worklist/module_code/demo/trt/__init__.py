from .hcf import TRTModel
