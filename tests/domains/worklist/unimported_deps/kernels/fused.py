from liger_kernel.transformers import LigerRMSNorm


def norm(hidden):
    return LigerRMSNorm(hidden)
