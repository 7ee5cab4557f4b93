from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="qattn",
    packages=["qattn"],
    ext_modules=[
        CUDAExtension("qattn._fused", ["csrc/fused/pybind.cpp", "csrc/fused/fused.cu"]),
    ],
    cmdclass={"build_ext": BuildExtension},
)
