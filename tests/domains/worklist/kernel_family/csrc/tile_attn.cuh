// One templated attention kernel; the launchers instantiate it per dtype.
#pragma once
#include "copy_async.cuh"

template <int HeadDim, typename T>
__global__ void tile_attn_kernel(const T *q, const T *k, T *out, int n) {
  __shared__ T tile[HeadDim];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    copy_async_16(tile, q + i);
    out[i] = q[i] * k[i];
  }
}
