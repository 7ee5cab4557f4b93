// Connected-component labeling: three passes of one op, and a separate
// histogram op with its own host function.
#include <cuda_runtime.h>
#include <torch/extension.h>

__global__ void init_labels(int *labels, const unsigned char *mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) labels[i] = mask[i] ? i : -1;
}

__global__ void merge_labels(int *labels, int width, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % width && labels[i] >= 0 && labels[i - 1] >= 0) atomicMin(&labels[i], labels[i - 1]);
}

__global__ void compress_labels(int *labels, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && labels[i] >= 0) {
    while (labels[labels[i]] != labels[i]) labels[i] = labels[labels[i]];
  }
}

__global__ void count_labels(const int *labels, int *counts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && labels[i] >= 0) atomicAdd(&counts[labels[i]], 1);
}

torch::Tensor connected_components(torch::Tensor mask) {
  int n = mask.numel(), width = mask.size(-1);
  auto labels = torch::empty({n}, mask.options().dtype(torch::kInt32));
  dim3 blocks((n + 255) / 256), threads(256);
  init_labels<<<blocks, threads>>>(labels.data_ptr<int>(), mask.data_ptr<unsigned char>(), n);
  merge_labels<<<blocks, threads>>>(labels.data_ptr<int>(), width, n);
  compress_labels<<<blocks, threads>>>(labels.data_ptr<int>(), n);
  return labels;
}

torch::Tensor label_counts(torch::Tensor labels) {
  int n = labels.numel();
  auto counts = torch::zeros({n}, labels.options());
  count_labels<<<(n + 255) / 256, 256>>>(labels.data_ptr<int>(), counts.data_ptr<int>(), n);
  return counts;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("connected_components", &connected_components);
  m.def("label_counts", &label_counts);
}
