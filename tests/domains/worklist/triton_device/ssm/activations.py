"""Device functions shared by the scan kernels."""
import triton
import triton.language as tl


@triton.jit
def softplus(dt):
    return tl.where(dt <= 20.0, tl.math.log(tl.math.exp(dt) + 1), dt)


@triton.jit
def tanh_approx(x):
    # PTX approximation: faster than the libdevice tanh
    return tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", constraints="=f,f", args=[x], dtype=tl.float32,
                                     is_pure=True, pack=1)
