from setuptools import find_packages, setup

setup(name="funasr_local", version="0.1.0", packages=find_packages())
