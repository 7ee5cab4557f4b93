#pragma once
#include <cuda_runtime.h>

struct bias_act_kernel_params {
    const void* x;
    const void* b;
    void* y;
    int sizeX;
    int act;
};

template <class T> void* choose_bias_act_kernel(const bias_act_kernel_params& p);
