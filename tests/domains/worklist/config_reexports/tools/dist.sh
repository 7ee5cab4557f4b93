#!/usr/bin/env bash
set -e
CMD=$1
CONFIG=$2
GPUS=$3
torchrun --nproc_per_node="$GPUS" tools/$CMD.py "$CONFIG" --launcher pytorch
