// The batched GEMM + softmax op: kernel configuration and its dispatch.
#pragma once
#include <cuda_runtime.h>
#include <cuda_fp16.h>

template <typename Kernel>
struct BatchSoftmax {
  cudaError_t run(cudaStream_t stream, int batch) {
    dim3 grid(batch);
    Kernel::invoke<<<grid, 256, 0, stream>>>();
    return cudaGetLastError();
  }
};
