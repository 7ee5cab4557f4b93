#include <torch/extension.h>

void texture_fwd_op(torch::Tensor tex, torch::Tensor uv, torch::Tensor out, int mode);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("texture_fwd", &texture_fwd_op, "texture lookup");
}
