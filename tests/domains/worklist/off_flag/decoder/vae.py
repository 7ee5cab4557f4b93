import torch
import torch.distributed as dist


class TiledVAE(torch.nn.Module):
    def __init__(self, use_trt_engine: bool = False):
        super().__init__()
        use_trt_engine = False  # if CPU_OFFLOAD else True
        # only relevant if parallel_decode is enabled
        self.parallel_decode = use_trt_engine
        self.gather_to_rank0 = self.parallel_decode
        # a toggle the library may set from outside
        self.fused_conv = False
        use_streams = False
        # the pipeline turns it on
        self.overlap = use_streams

    def encode(self, x, chunked=False):
        use_chunks = False
        if chunked:
            use_chunks = True
        self.chunked = use_chunks
        if self.chunked:
            torch.cuda.empty_cache()
        return x

    def decode(self, z):
        if self.parallel_decode and self.gather_to_rank0:
            # the tiles of every rank gather on rank 0: never taken
            rank = dist.get_rank()
            torch.cuda.set_device(rank)
            z = z.to(rank)
        if self.fused_conv:
            torch.cuda.synchronize()
        if self.overlap:
            torch.cuda.current_stream().synchronize()
        return z
