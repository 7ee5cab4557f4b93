def instantiate(config):
    """Builds the class a configuration names by its dotted path."""
    class_module, class_name = config["class_path"].rsplit(".", 1)
    module = __import__(class_module, fromlist=[class_name])
    return getattr(module, class_name)()
