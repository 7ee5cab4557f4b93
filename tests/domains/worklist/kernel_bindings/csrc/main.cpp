#include <torch/extension.h>

void gather_rows(torch::Tensor src, torch::Tensor dst, torch::Tensor rows);
void scatter_rows(torch::Tensor src, torch::Tensor dst, torch::Tensor rows);
void batch_softmax(torch::Tensor scores);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("gather_rows", &gather_rows, "gather selected rows (CUDA)");
  m.def("scatter_rows", &scatter_rows, "scatter rows back (CUDA)");
  m.def("batch_softmax", &batch_softmax, "batched softmax (CUDA)");
}
