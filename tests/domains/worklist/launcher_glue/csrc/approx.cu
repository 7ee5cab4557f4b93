#include <torch/extension.h>
#include "decode_attn.cuh"

void decode_attn(torch::Tensor q, torch::Tensor o) {
  auto status = BatchDecodeWithPagedKVCache(q.data_ptr(), o.data_ptr());
  TORCH_CHECK(status == cudaSuccess, "BatchDecode failed: ", cudaGetErrorString(status));
}

void prefill_attn(torch::Tensor q, torch::Tensor o) {
  auto status = BatchPrefillWithPagedKVCache(q.data_ptr(), o.data_ptr());
  TORCH_CHECK(status == cudaSuccess, "BatchPrefill failed: ", cudaGetErrorString(status));
}
