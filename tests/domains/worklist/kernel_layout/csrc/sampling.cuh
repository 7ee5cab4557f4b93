// Sampling kernels; the launch bounds come from a macro, as in most kernel libraries.
#pragma once
#include <curand_kernel.h>

#define SAMPLING_LAUNCH_BOUNDS(threads) __launch_bounds__(threads)

template <uint32_t BLOCK_THREADS, typename DType, typename IdType>
__global__ SAMPLING_LAUNCH_BOUNDS(BLOCK_THREADS) void SamplingFromProbKernel(DType* probs, IdType* output,
                                                                             uint32_t d, uint64_t seed) {
  curandStatePhilox4_32_10_t state;
  curand_init(seed, blockIdx.x, 0, &state);
  const float u = curand_uniform(&state);
  float acc = 0.f;
  IdType picked = 0;
  for (uint32_t i = threadIdx.x; i < d; i += BLOCK_THREADS) {
    acc += static_cast<float>(probs[blockIdx.x * d + i]);
    if (acc > u && picked == 0) picked = i;
  }
  output[blockIdx.x] = picked;
}
