#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include "bias_act.h"

static torch::Tensor bias_act(torch::Tensor x, torch::Tensor b, std::string act)
{
    TORCH_CHECK(x.is_cuda(), "x must reside on CUDA device");
    torch::Tensor y = torch::empty_like(x);
    bias_act_kernel_params p;
    p.x = x.data_ptr();
    p.b = b.numel() ? b.data_ptr() : NULL;
    p.y = y.data_ptr();
    p.sizeX = (int)x.numel();
    p.act = act == "lrelu" ? 1 : 0;
    void* kernel = choose_bias_act_kernel<float>(p);
    void* args[] = {&p};
    AT_CUDA_CHECK(cudaLaunchKernel(kernel, dim3((p.sizeX + 127) / 128), dim3(128), args, 0, at::cuda::getCurrentCUDAStream()));
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("bias_act", &bias_act);
}
