#pragma once
#include <cuda_runtime.h>
#include <raft/matrix/detail/select_radix.cuh>

template <typename T, typename IdxT>
void decode_select_k(const T* in, IdxT len, IdxT k, T* out_v, IdxT* out_i, cudaStream_t stream) {
  int dev;
  cudaGetDevice(&dev);
  int sm_cnt;
  cudaDeviceGetAttribute(&sm_cnt, cudaDevAttrMultiProcessorCount, dev);
  auto kernel = raft::matrix::detail::select::radix::impl::radix_topk_one_block_kernel<T, IdxT, 512>;
  kernel<<<sm_cnt, 512, 0, stream>>>(in, len, k, out_v, out_i);
}
