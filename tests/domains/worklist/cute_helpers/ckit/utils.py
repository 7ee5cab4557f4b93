import cutlass.cute as cute


@cute.jit
def warp_reduce(val, op):
    for i in range(5):
        val = op(val, cute.arch.shuffle_sync_bfly(val, offset=1 << i))
    return val
