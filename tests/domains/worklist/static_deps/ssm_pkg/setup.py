from setuptools import find_packages, setup

setup(
    name="ssm-pkg",
    version="0.3.0",
    packages=find_packages(),
    install_requires=[
        "torch",
        "einops",
        "triton>=3.0",
        "causal-conv1d>=1.4",
    ],
)
