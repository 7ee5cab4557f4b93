import os

from setuptools import find_packages, setup

ext_modules = []
if os.environ.get("BUILD_CUDA_EXT", "1") == "1":
    from torch.utils.cpp_extension import BuildExtension, CUDAExtension

    ext_modules.append(CUDAExtension("exkernels", ["csrc/ext.cpp", "csrc/q4_matmul.cu"]))

setup(name="gptq", packages=find_packages(), ext_modules=ext_modules,
      cmdclass={"build_ext": BuildExtension} if ext_modules else {})
