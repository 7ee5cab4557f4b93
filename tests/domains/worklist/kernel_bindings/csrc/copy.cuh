// Row gathers: one block per selected row.
#pragma once
#include <cuda_runtime.h>

__global__ void gather_rows_kernel(const float *src, float *dst, const int *rows, int cols) {
  int r = rows[blockIdx.x];
  for (int c = threadIdx.x; c < cols; c += blockDim.x) dst[blockIdx.x * cols + c] = src[r * cols + c];
}

__global__ void gather_rows_strided_kernel(const float *src, float *dst, const int *rows, int cols, int stride) {
  int r = rows[blockIdx.x] * stride;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) dst[blockIdx.x * cols + c] = src[r * cols + c];
}

__global__ void scatter_rows_kernel(const float *src, float *dst, const int *rows, int cols) {
  int r = rows[blockIdx.x];
  for (int c = threadIdx.x; c < cols; c += blockDim.x) dst[r * cols + c] = src[blockIdx.x * cols + c];
}
