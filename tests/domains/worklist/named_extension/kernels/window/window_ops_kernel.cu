#include <torch/extension.h>

__global__ void roll_partition_kernel(const float *in, float *out, int n, int shift) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[(i + shift) % n] = in[i];
}

at::Tensor roll_partition_cuda(const at::Tensor &x, int shift, int window) {
  auto out = at::empty_like(x);
  int n = x.numel();
  roll_partition_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), n, shift);
  return out;
}
