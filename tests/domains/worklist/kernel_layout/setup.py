from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="tklib",
    packages=["tklib"],
    ext_modules=[CUDAExtension("tklib._C", ["csrc/attn.cu", "csrc/comm.cu", "csrc/fft_conv.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
