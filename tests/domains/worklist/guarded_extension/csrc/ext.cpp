#include <torch/extension.h>

void q4_matmul_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor out);

void q4_matmul(torch::Tensor x, torch::Tensor w, torch::Tensor out)
{
    q4_matmul_cuda(x, w, out);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("q4_matmul", &q4_matmul, "q4_matmul");
}
