// Host entry points of the sampling kernels.
#include <cuda_runtime.h>
#include <sstream>
#include <stdexcept>

#include "sampling.cuh"

template <typename DType, typename IdType>
cudaError_t SamplingFromProb(DType* probs, IdType* output, uint32_t batch, uint32_t d, uint64_t seed,
                             cudaStream_t stream) {
  SamplingFromProbKernel<1024, DType, IdType><<<batch, 1024, 0, stream>>>(probs, output, d, seed);
  return cudaGetLastError();
}

void sampling_from_prob(float* probs, int* output, uint32_t batch, uint32_t d, uint64_t seed, cudaStream_t stream) {
  cudaError_t status = SamplingFromProb<float, int>(probs, output, batch, d, seed, stream);
  if (status != cudaSuccess) {
    std::ostringstream msg;
    msg << "SamplingFromProb failed with error code " << cudaGetErrorString(status);
    throw std::runtime_error(msg.str());
  }
}

void check_device(int expected) {
  int device = -1;
  cudaGetDevice(&device);
  if (device != expected) throw std::runtime_error(cudaGetErrorString(cudaErrorInvalidDevice));
}
