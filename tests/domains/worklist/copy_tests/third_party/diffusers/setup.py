from setuptools import find_packages, setup

setup(name="diffusers", version="0.15.0.dev0", package_dir={"": "src"}, packages=find_packages("src"))
