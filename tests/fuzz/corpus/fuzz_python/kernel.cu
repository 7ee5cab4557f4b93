#include <cuda_runtime.h>
#include <cublas_v2.h>
__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.f;
}
void run(float* h, int n) {
  float* d; cudaMalloc(&d, n * 4);
  cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaFree(d);
}
