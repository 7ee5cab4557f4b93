import os

import triton

if os.environ.get("SPARSE_ATTN_AUTOTUNE", "0") == "1":
    autotune = triton.autotune
else:
    def autotune(*args, **kwargs):
        def decorator(fn):
            return fn

        return decorator
