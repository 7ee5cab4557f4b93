from setuptools import setup

setup(
    name="legacy-pkg",
    version="0.1.0",
    py_modules=["legacy"],
    install_requires=["torch", "triton>=3.0"],
)
