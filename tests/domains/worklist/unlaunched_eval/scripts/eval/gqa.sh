#!/bin/bash
MODEL_PATH=$1
torchrun --nproc-per-node=8 vlm/eval/gqa.py --model-path $MODEL_PATH
