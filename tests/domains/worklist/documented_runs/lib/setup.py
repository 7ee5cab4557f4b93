from setuptools import find_packages, setup

setup(name="tinydiff", version="1.0.0", packages=find_packages())
