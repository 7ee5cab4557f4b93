#include <torch/extension.h>
#include "scale.cuh"

torch::Tensor scale(torch::Tensor x, float s) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  return launch_scale(x, s);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("scale", &scale); }
