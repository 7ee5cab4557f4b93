#include <torch/extension.h>
#include <torch/library.h>

#include "nms_rotated.h"

namespace rotbox {

TORCH_LIBRARY(rotbox, m) {
  m.def("nms_rotated(Tensor dets, Tensor scores, float iou_threshold) -> Tensor");
  m.impl("nms_rotated", torch::kCUDA, &nms_rotated_cuda);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("shift_boxes", &shift_boxes_cuda, "shift rotated boxes"); }

}  // namespace rotbox
