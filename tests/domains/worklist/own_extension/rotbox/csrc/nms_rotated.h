#pragma once
#include <ATen/ATen.h>

namespace rotbox {
at::Tensor nms_rotated_cuda(const at::Tensor& dets, const at::Tensor& scores, double iou_threshold);
at::Tensor shift_boxes_cuda(const at::Tensor& boxes, double dx);
}  // namespace rotbox
