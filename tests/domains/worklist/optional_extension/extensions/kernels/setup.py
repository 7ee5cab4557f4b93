from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="cauchy_ext",
    ext_modules=[CUDAExtension("cauchy_ext", ["cauchy.cpp", "cauchy_cuda.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
