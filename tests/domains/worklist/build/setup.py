import torch
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

arch_flags = []
if torch.cuda.is_available():
    for i in range(torch.cuda.device_count()):
        major, minor = torch.cuda.get_device_capability(i)
        arch_flags.append(f"-gencode=arch=compute_{major}{minor},code=sm_{major}{minor}")

setup(
    name="fp8pkg",
    ext_modules=[CUDAExtension("fp8pkg._C", ["csrc/quant.cu"], extra_compile_args={"nvcc": arch_flags})],
    cmdclass={"build_ext": BuildExtension},
)
