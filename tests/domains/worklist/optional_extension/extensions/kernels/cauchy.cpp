#include <torch/extension.h>
#include <c10/cuda/CUDAGuard.h>

torch::Tensor cauchy_fwd_cuda(torch::Tensor v, torch::Tensor z);

torch::Tensor cauchy_fwd(torch::Tensor v, torch::Tensor z) {
  TORCH_CHECK(v.is_cuda(), "v must be on CUDA");
  const at::cuda::OptionalCUDAGuard guard(v.device());
  return cauchy_fwd_cuda(v, z);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("cauchy_fwd", &cauchy_fwd, "Cauchy kernel (CUDA)"); }
