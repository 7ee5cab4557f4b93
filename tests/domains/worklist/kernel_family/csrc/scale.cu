#include <cuda_runtime.h>
#include <cuda_bf16.h>

__global__ void scale_kernel(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

void scale(float *x, float s, int n, cudaStream_t stream) {
  scale_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x, s, n);
}
