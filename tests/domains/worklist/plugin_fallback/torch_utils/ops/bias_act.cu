#include <c10/util/Half.h>
#include "bias_act.h"

template <class T> __global__ void bias_act_kernel(bias_act_kernel_params p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.sizeX) return;
    T x = ((const T*)p.x)[i];
    if (p.b) x += ((const T*)p.b)[i % 16];
    if (p.act == 1 && x < 0) x *= (T)0.2;
    ((T*)p.y)[i] = x;
}

template <class T> void* choose_bias_act_kernel(const bias_act_kernel_params& p)
{
    return (void*)bias_act_kernel<T>;
}

template void* choose_bias_act_kernel<float>(const bias_act_kernel_params& p);
