#include "tile_attn.cuh"

void tile_attn_f16(const half *q, const half *k, half *out, int n, cudaStream_t stream) {
  auto kernel_func = tile_attn_kernel<64, half>;
  cudaFuncSetAttribute(kernel_func, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  kernel_func<<<(n + 127) / 128, 128, 0, stream>>>(q, k, out, n);
}
