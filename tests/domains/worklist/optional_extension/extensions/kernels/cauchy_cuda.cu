#include <torch/extension.h>

__global__ void cauchy_fwd_kernel(const float *v, const float *z, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = v[i] / (z[i] + 1.f);
}

torch::Tensor cauchy_fwd_cuda(torch::Tensor v, torch::Tensor z) {
  auto out = torch::empty_like(v);
  int n = v.numel();
  cauchy_fwd_kernel<<<(n + 255) / 256, 256>>>(v.data_ptr<float>(), z.data_ptr<float>(), out.data_ptr<float>(), n);
  return out;
}
