#include <torch/extension.h>

__global__ void count_kernel(const int64_t *cells, int *counts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[cells[i]], 1);
}

at::Tensor count_cuda(const at::Tensor &cells, int64_t bins) {
  auto counts = at::zeros({bins}, cells.options().dtype(at::kInt));
  int n = cells.numel();
  count_kernel<<<(n + 255) / 256, 256>>>(cells.data_ptr<int64_t>(), counts.data_ptr<int>(), n);
  return counts;
}
