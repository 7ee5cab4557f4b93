#include <torch/extension.h>

__global__ void rope_kernel(float *x, const float *cos, const float *sin, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 2) {
    float a = x[2 * i], b = x[2 * i + 1];
    x[2 * i] = a * cos[i] - b * sin[i];
    x[2 * i + 1] = a * sin[i] + b * cos[i];
  }
}

void apply_rope(torch::Tensor x, torch::Tensor cos, torch::Tensor sin) {
  int n = x.numel();
  rope_kernel<<<(n / 2 + 255) / 256, 256>>>(x.data_ptr<float>(), cos.data_ptr<float>(), sin.data_ptr<float>(), n);
}

PYBIND11_MODULE(fast_rope, m) { m.def("apply_rope", &apply_rope, "rotary embedding in place"); }
