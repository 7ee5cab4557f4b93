from fastops.registry import register_impl
