#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void attn_kernel(const float *q, const float *k, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = q[i] * k[i];
}

void attention(torch::Tensor q, torch::Tensor k, torch::Tensor v, torch::Tensor out) {
  int n = q.numel();
  attn_kernel<<<(n + 255) / 256, 256>>>(q.data_ptr<float>(), k.data_ptr<float>(), out.data_ptr<float>(), n);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("attention", &attention); }
