#include <torch/extension.h>
#include "estimate.cuh"

void estimate(torch::Tensor q, torch::Tensor o) {
  auto status = EstimateAttnScore(q.data_ptr(), o.data_ptr());
  TORCH_CHECK(status == cudaSuccess, "Estimate failed: ", cudaGetErrorString(status));
}
