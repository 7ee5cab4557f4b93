#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>

at::Tensor deform_attn_cpu_forward(const at::Tensor &value, const at::Tensor &shapes, const at::Tensor &loc,
                                   const at::Tensor &weights, int step) {
  AT_ERROR("deformable attention has no CPU kernel: the PyTorch path runs instead");
}
