#include <ATen/cuda/CUDAContext.h>
#include <cuda_bf16.h>
#include <torch/extension.h>

void cuda_forward_bf16(int B, int T, int C, __nv_bfloat16 *k, __nv_bfloat16 *v, float *y);

void forward_bf16(torch::Tensor &k, torch::Tensor &v, torch::Tensor &y) {
  cuda_forward_bf16(k.size(0), k.size(1), k.size(2), (__nv_bfloat16 *)k.data_ptr(), (__nv_bfloat16 *)v.data_ptr(),
                    y.data_ptr<float>());
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &forward_bf16, "wkv forward (bf16)"); }
