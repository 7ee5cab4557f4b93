#!/bin/bash
# inference on the test prompts
python musicgen/bin/infer.py --prompts data/prompts.txt --out outputs/
