#pragma once
#include <torch/extension.h>

#ifdef WITH_CUDA
at::Tensor deform_attn_cuda_forward(const at::Tensor &value, const at::Tensor &shapes, const at::Tensor &loc,
                                    const at::Tensor &weights, int step);
#endif

inline at::Tensor deform_attn_forward(const at::Tensor &value, const at::Tensor &shapes, const at::Tensor &loc,
                                      const at::Tensor &weights, int step) {
  if (value.is_cuda()) {
#ifdef WITH_CUDA
    return deform_attn_cuda_forward(value, shapes, loc, weights, step);
#else
    AT_ERROR("not compiled with GPU support");
#endif
  }
  AT_ERROR("CPU version not implemented");
}
