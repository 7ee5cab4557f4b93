import glob
import os

import torch
from setuptools import find_packages, setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension


def get_extensions():
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "detr", "ops", "csrc")
    sources = glob.glob(os.path.join(here, "*.cpp"))
    cuda_sources = glob.glob(os.path.join(here, "cuda", "*.cu"))
    if CUDA_HOME is not None and torch.cuda.is_available():
        extension = CUDAExtension
        sources += cuda_sources
        macros = [("WITH_CUDA", None)]
    else:
        print("building without CUDA: the PyTorch deformable attention runs")
        return None
    return [extension("detr._C", sources, include_dirs=[here], define_macros=macros)]


setup(
    name="tinydetr",
    packages=find_packages(),
    ext_modules=get_extensions(),
    cmdclass={"build_ext": BuildExtension},
)
