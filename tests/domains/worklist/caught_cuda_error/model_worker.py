"""A model worker: streams generated text; errors become an error code."""
import json

import torch

SERVER_ERROR_MSG = "**NETWORK ERROR DUE TO HIGH TRAFFIC. PLEASE REGENERATE OR REFRESH THIS PAGE.**"


def generate_stream_gate(model, params):
    try:
        for x in model.generate_stream(params):
            yield x
    except ValueError as e:
        yield json.dumps({"text": f"{SERVER_ERROR_MSG}\n\n({e})", "error_code": 1}).encode() + b"\0"
    except torch.cuda.CudaError as e:
        yield json.dumps({"text": f"{SERVER_ERROR_MSG}\n\n({e})", "error_code": 2}).encode() + b"\0"
    except Exception as e:
        yield json.dumps({"text": f"{SERVER_ERROR_MSG}\n\n({e})", "error_code": 3}).encode() + b"\0"


def check_device():
    if not torch.cuda.is_available():
        raise torch.cuda.CudaError("no CUDA device")


if __name__ == "__main__":
    check_device()
    for chunk in generate_stream_gate(None, {}):
        print(chunk)
