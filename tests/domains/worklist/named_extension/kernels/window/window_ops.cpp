#include <torch/extension.h>

at::Tensor roll_partition_cuda(const at::Tensor &x, int shift, int window);

at::Tensor roll_partition(const at::Tensor &x, int shift, int window) { return roll_partition_cuda(x, shift, window); }

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("roll_partition", &roll_partition, "roll and partition"); }
