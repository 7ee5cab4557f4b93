export CUDA_VISIBLE_DEVICES=0
export NCCL_DEBUG=INFO
torchrun x.py
