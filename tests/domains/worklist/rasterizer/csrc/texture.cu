#include <cuda_runtime.h>

struct TextureKernelParams {
    const float* tex;
    const float* uv;
    float* out;
    int n;
    int width;
};

template <class T, int C, bool CUBE_MODE, int FILTER_MODE>
static __forceinline__ __device__ void TextureFwdKernelTemplate(const TextureKernelParams p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.n) return;
    float u = p.uv[2 * i] * (p.width - 1), v = p.uv[2 * i + 1] * (p.width - 1);
    int x = (int)u, y = (int)v;
    for (int c = 0; c < C; c++) {
        float t = p.tex[(y * p.width + x) * C + c];
        if (FILTER_MODE == 1) t = 0.5f * (t + p.tex[(y * p.width + min(x + 1, p.width - 1)) * C + c]);
        p.out[i * C + c] = CUBE_MODE ? -t : t;
    }
}

// Template specializations.
__global__ void TextureFwdKernelNearest1(const TextureKernelParams p) { TextureFwdKernelTemplate<float, 1, false, 0>(p); }
__global__ void TextureFwdKernelNearest4(const TextureKernelParams p) { TextureFwdKernelTemplate<float4, 4, false, 0>(p); }
__global__ void TextureFwdKernelLinear1(const TextureKernelParams p) { TextureFwdKernelTemplate<float, 1, false, 1>(p); }
__global__ void TextureFwdKernelCubeLinear1(const TextureKernelParams p) { TextureFwdKernelTemplate<float, 1, true, 1>(p); }

void texture_fwd(const TextureKernelParams& p, int mode, cudaStream_t stream)
{
    void* kernels[] = {(void*)TextureFwdKernelNearest1, (void*)TextureFwdKernelNearest4, (void*)TextureFwdKernelLinear1,
                       (void*)TextureFwdKernelCubeLinear1};
    void* args[] = {(void*)&p};
    cudaLaunchKernel(kernels[mode], dim3((p.n + 255) / 256), dim3(256), args, 0, stream);
}
