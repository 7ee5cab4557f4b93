#include <torch/extension.h>

__global__ void q4_matmul_kernel(const half* x, const int* w, half* out, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= n) return;
    float acc = 0.f;
    for (int i = 0; i < k; i++) acc += __half2float(x[i]) * (float)((w[(i / 8) * n + col] >> ((i % 8) * 4)) & 15);
    out[col] = __float2half(acc);
}

void q4_matmul_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor out)
{
    int k = x.size(-1), n = out.size(-1);
    q4_matmul_kernel<<<(n + 127) / 128, 128>>>((const half*)x.data_ptr(), w.data_ptr<int>(), (half*)out.data_ptr(), k, n);
}
