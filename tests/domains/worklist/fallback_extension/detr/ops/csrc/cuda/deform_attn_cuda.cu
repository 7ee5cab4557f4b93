#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>
#include <torch/extension.h>

__global__ void deform_attn_kernel(const float *value, const float *loc, const float *w, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value[i] * w[i] + loc[i];
}

at::Tensor deform_attn_cuda_forward(const at::Tensor &value, const at::Tensor &shapes, const at::Tensor &loc,
                                    const at::Tensor &weights, int step) {
  TORCH_CHECK(value.is_cuda(), "value must be a CUDA tensor");
  auto out = at::empty_like(value);
  int n = value.numel();
  auto stream = at::cuda::getCurrentCUDAStream();
  deform_attn_kernel<<<(n + step - 1) / step, step, 0, stream>>>(value.data_ptr<float>(), loc.data_ptr<float>(),
                                                                 weights.data_ptr<float>(), out.data_ptr<float>(), n);
  return out;
}
