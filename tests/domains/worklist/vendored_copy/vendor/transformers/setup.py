from setuptools import setup
setup(name="transformers")
