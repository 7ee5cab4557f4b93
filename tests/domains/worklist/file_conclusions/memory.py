"""Reports of the attention library: one decision for the file, said once."""
import xformers


def describe_backend():
    return xformers.info.get_features()


def log_backend(logger):
    logger.info("xformers %s", xformers.__version__)
    return xformers.info.get_features()
