#include <torch/extension.h>

void cuda_forward(int B, int T, int C, float *w, float *u, float *k, float *v, float *y);

void forward(torch::Tensor &w, torch::Tensor &u, torch::Tensor &k, torch::Tensor &v, torch::Tensor &y) {
  cuda_forward(k.size(0), k.size(1), k.size(2), w.data_ptr<float>(), u.data_ptr<float>(), k.data_ptr<float>(),
               v.data_ptr<float>(), y.data_ptr<float>());
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &forward, "wkv forward"); }
