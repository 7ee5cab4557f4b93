from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension, BuildExtension
setup(name="x", install_requires=["torch", "flash-attn"],
      ext_modules=[CUDAExtension("x._C", ["a.cu"])], cmdclass={"build_ext": BuildExtension})
