#include <ATen/ATen.h>

namespace boxes {

template <typename T>
__global__ void box_iou_rotated_cuda_kernel(const int n_boxes1, const int n_boxes2, const T* dev_boxes1,
                                            const T* dev_boxes2, T* dev_ious) {
  const int row_start = blockIdx.x * blockDim.x;
  const int col_start = blockIdx.y * blockDim.y;
  const int row_size = min(n_boxes1 - row_start, blockDim.x);
  const int col_size = min(n_boxes2 - col_start, blockDim.y);
  if (threadIdx.x < row_size && threadIdx.y < col_size) {
    int offset = (row_start + threadIdx.x) * n_boxes2 + col_start + threadIdx.y;
    dev_ious[offset] = single_box_iou_rotated<T>(dev_boxes1 + threadIdx.x * 5, dev_boxes2 + threadIdx.y * 5);
  }
}

at::Tensor box_iou_rotated_cuda(const at::Tensor& boxes1, const at::Tensor& boxes2) {
  auto ious = at::empty({boxes1.size(0) * boxes2.size(0)}, boxes1.options());
  dim3 blocks(1, 1), threads(32, 16);
  box_iou_rotated_cuda_kernel<float><<<blocks, threads, 0, 0>>>(
      boxes1.size(0), boxes2.size(0), boxes1.data_ptr<float>(), boxes2.data_ptr<float>(), ious.data_ptr<float>());
  return ious;
}

}  // namespace boxes
