#!/bin/sh
# the library's own tool: it runs the copy's Bark model, not the project
python -m transformers.models.bark.modeling_bark --check
