IMPLS = {}


def register_impl(name, devices, module_path, default_devices=()):
    IMPLS[name] = (tuple(devices), tuple(default_devices), module_path)
