#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>

#include "nms_rotated.h"

namespace rotbox {

__global__ void nms_rotated_cuda_kernel(const int n_boxes, const float iou_threshold, const float* dev_boxes,
                                        unsigned long long* dev_mask) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n_boxes) dev_mask[row] = dev_boxes[row * 5 + 4] > iou_threshold ? 1ull : 0ull;
}

__global__ void shift_boxes_kernel(const int n, const float dx, float* boxes) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) boxes[i * 5] += dx;
}

at::Tensor nms_rotated_cuda(const at::Tensor& dets, const at::Tensor& scores, double iou_threshold) {
  auto mask = at::zeros({dets.size(0)}, dets.options().dtype(at::kLong));
  nms_rotated_cuda_kernel<<<1, 64, 0, at::cuda::getCurrentCUDAStream()>>>(
      dets.size(0), iou_threshold, dets.data_ptr<float>(), (unsigned long long*)mask.data_ptr<int64_t>());
  return mask;
}

at::Tensor shift_boxes_cuda(const at::Tensor& boxes, double dx) {
  auto out = boxes.clone();
  shift_boxes_kernel<<<(boxes.size(0) + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      boxes.size(0), dx, out.data_ptr<float>());
  return out;
}

}  // namespace rotbox
