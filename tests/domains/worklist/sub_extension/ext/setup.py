from setuptools import setup, find_packages
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="rast",
    packages=find_packages(),
    ext_modules=[CUDAExtension("rast_kernel", ["lib/rast.cpp", "lib/rast_gpu.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
