#pragma once
#include <torch/extension.h>

void quant_per_block_int8_cuda(torch::Tensor input, torch::Tensor output, torch::Tensor scale, int block_size);
