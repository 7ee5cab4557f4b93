#include "deform_attn.h"

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("deform_attn_forward", &deform_attn_forward, "deformable attention forward");
}
