#include <cuda_fp16.h>
#include "fused.h"

__global__ void QuantInt8Kernel(const half* input, int8_t* output, float* scale, int block_size, int n)
{
    int block = blockIdx.x;
    float amax = 0.f;
    for (int i = threadIdx.x; i < block_size && block * block_size + i < n; i += blockDim.x)
        amax = fmaxf(amax, fabsf(__half2float(input[block * block_size + i])));
    if (threadIdx.x == 0) scale[block] = amax / 127.f;
    for (int i = threadIdx.x; i < block_size && block * block_size + i < n; i += blockDim.x)
        output[block * block_size + i] = (int8_t)rintf(__half2float(input[block * block_size + i]) * 127.f / amax);
}

void quant_per_block_int8_cuda(torch::Tensor input, torch::Tensor output, torch::Tensor scale, int block_size)
{
    int n = input.numel();
    dim3 grid((n + block_size - 1) / block_size), block(128);
    QuantInt8Kernel<<<grid, block>>>((const half*)input.data_ptr(), output.data_ptr<int8_t>(), scale.data_ptr<float>(),
                                     block_size, n);
}
