import os

import torch
from setuptools import setup
from torch.utils.cpp_extension import CppExtension, CUDAExtension


def get_extensions():
    extension = CppExtension
    sources = ["shift_ops.cpp"]
    if torch.cuda.is_available() or os.getenv("FORCE_CUDA", "0") == "1":
        extension = CUDAExtension
        sources += ["shift_ops_kernel.cu"]
    return [extension("ShiftOps", sources)]


setup(name="ShiftOps", ext_modules=get_extensions(), cmdclass={"build_ext": torch.utils.cpp_extension.BuildExtension})
