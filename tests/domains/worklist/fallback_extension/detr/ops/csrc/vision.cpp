#include "deform_attn.h"

#ifdef WITH_CUDA
at::Tensor count_cuda(const at::Tensor &cells, int64_t bins);
#endif

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("deform_attn_forward", &deform_attn_forward, "deformable attention forward");
#ifdef WITH_CUDA
  m.def("count_cuda", &count_cuda, "points per cell");
#endif
}
