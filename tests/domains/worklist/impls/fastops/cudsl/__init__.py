"""Opt-in CUDA DSL kernels, selected with FASTOPS_IMPL=cudsl."""
from fastops.registry import register_impl

register_impl(name="cudsl", devices=("cuda",), module_path=f"{__name__}.norm")
