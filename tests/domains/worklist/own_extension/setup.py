import glob

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="rotbox",
    packages=["rotbox"],
    ext_modules=[
        CUDAExtension("rotbox._C", glob.glob("rotbox/csrc/*.cpp") + glob.glob("rotbox/csrc/*.cu")),
    ],
    cmdclass={"build_ext": BuildExtension},
)
