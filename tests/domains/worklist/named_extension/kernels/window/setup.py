from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="window_ops",
    ext_modules=[CUDAExtension("window_ops", ["window_ops.cpp", "window_ops_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
