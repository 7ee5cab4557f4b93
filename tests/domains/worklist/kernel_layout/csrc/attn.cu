#include <torch/extension.h>
#include <cuda_runtime.h>
#include <nccl.h>

__global__ void attn_kernel(const float *q, const float *k, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = q[i] * k[i];
}

void attention(torch::Tensor q, torch::Tensor k, torch::Tensor v, torch::Tensor out) {
  int n = q.numel();
  attn_kernel<<<(n + 255) / 256, 256>>>(q.data_ptr<float>(), k.data_ptr<float>(), out.data_ptr<float>(), n);
}

void all_reduce(const float *in, float *out, size_t n, ncclComm_t comm, cudaStream_t stream);
void butterfly_padded(torch::Tensor x, torch::Tensor out);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("attention", &attention);
  m.def("all_reduce", &all_reduce);
  m.def("butterfly_padded", &butterfly_padded);
}
