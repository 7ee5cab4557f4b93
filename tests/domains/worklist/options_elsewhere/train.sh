#!/bin/sh
python main.py --workspace trial --fp16
