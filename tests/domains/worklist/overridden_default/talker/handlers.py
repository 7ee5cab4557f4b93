"""Request handlers of the demo server."""
import torch
import torch.distributed as dist


def predict(pipeline, request):
    if dist.is_initialized():
        # left over from an older version: nothing below reads it
        device = torch.device(f"cuda:{dist.get_rank()}")
        rank = dist.get_rank()
    else:
        rank = 0
    return pipeline(request["frames"], request["audio"]), rank


def warmup(pipeline):
    device = torch.device("cuda")
    frames = torch.zeros(1, 3, 64, 64, device=device)
    return pipeline(frames, None)


def sample_class_images(pipeline, accelerator, precision):
    # computed, overwritten by the precision flag, and never passed on: the pipeline is fp16
    torch_dtype = torch.float16 if accelerator.device.type == "cuda" else torch.float32
    if precision == "fp32":
        torch_dtype = torch.float32
    elif precision == "bf16":
        torch_dtype = torch.bfloat16
    return pipeline.to(accelerator.device)
