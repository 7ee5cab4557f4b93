// Asynchronous global-to-shared copies used by the attention kernel.
#pragma once
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__device__ __forceinline__ void copy_async_16(void *smem, const void *gmem) {
  *reinterpret_cast<int4 *>(smem) = *reinterpret_cast<const int4 *>(gmem);
}
