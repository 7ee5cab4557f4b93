from setuptools import find_packages, setup

setup(name="voxtts", version="0.3.0", packages=find_packages())
