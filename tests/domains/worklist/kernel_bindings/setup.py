from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="kvcache",
    packages=["kvcache"],
    ext_modules=[
        CUDAExtension(
            "kvcache_kernels",
            ["csrc/main.cpp", "csrc/gather_rows.cu", "csrc/batch_softmax.cu"],
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
