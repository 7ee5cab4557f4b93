#include <torch/extension.h>
#include "copy.cuh"

void gather_rows(torch::Tensor src, torch::Tensor dst, torch::Tensor rows) {
  gather_rows_kernel<<<rows.size(0), 128>>>(src.data_ptr<float>(), dst.data_ptr<float>(), rows.data_ptr<int>(),
                                            src.size(1));
}

void scatter_rows(torch::Tensor src, torch::Tensor dst, torch::Tensor rows) {
  scatter_rows_kernel<<<rows.size(0), 128>>>(src.data_ptr<float>(), dst.data_ptr<float>(), rows.data_ptr<int>(),
                                             src.size(1));
}
