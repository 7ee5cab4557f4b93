#pragma once
#include <cuda_runtime.h>
#include <torch/extension.h>

__global__ void scale_kernel(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

inline torch::Tensor launch_scale(torch::Tensor x, float s) {
  int n = x.numel();
  scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), s, n);
  return x;
}

// the project's own wrapper, named after the library it calls
inline void cublaslt_scale(cublasLtHandle_t handle, float *x, int n) {
  cublasLtMatmulDesc_t desc;
  cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
}
