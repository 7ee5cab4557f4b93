// Rotated-box ops: a grid-stride loop macro inside the kernels, a rotated
// NMS kernel, and a rotated IoU kernel whose bounds checks
// (`a < b && c < d`) the C++ grammar reads as template arguments.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>

#define CUDA_1D_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

template <typename T>
__global__ void RoIAlignRotatedBackward(const int nthreads, const T* top_diff, T* bottom_diff) {
  CUDA_1D_KERNEL_LOOP(index, nthreads) {
    int pw = index % 7;
    atomicAdd(bottom_diff + pw, top_diff[index]);
  }
}

template <typename T>
__global__ void nms_rotated_cuda_kernel(const int n_boxes, const float iou_threshold, const T* dev_boxes,
                                        unsigned long long* dev_mask) {
  const int row_start = blockIdx.y;
  if (row_start < n_boxes) dev_mask[row_start] = iou_threshold > dev_boxes[row_start] ? 1 : 0;
}

void roi_align_rotated_backward(int n, const float* top, float* bottom, cudaStream_t stream) {
  RoIAlignRotatedBackward<float><<<(n + 255) / 256, 256, 0, stream>>>(n, top, bottom);
}

void nms_rotated(int n, float thr, const float* boxes, unsigned long long* mask, cudaStream_t stream) {
  nms_rotated_cuda_kernel<float><<<n, 64, 0, stream>>>(n, thr, boxes, mask);
}
