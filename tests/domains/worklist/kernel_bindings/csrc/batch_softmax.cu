#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include "batch_softmax.h"

struct SoftmaxKernel {
  static void invoke();
};

void batch_softmax(torch::Tensor scores) {
  TORCH_CHECK(scores.is_cuda(), "scores must be a CUDA tensor");
  BatchSoftmax<SoftmaxKernel> op;
  op.run(at::cuda::getCurrentCUDAStream(), scores.size(0));
}
