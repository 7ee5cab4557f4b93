from talker.engine import Exporter, Renderer


class LiveRenderer(Renderer):
    def __init__(self, model, device="npu"):
        # a constructor of its own: naming Renderer as its base builds nothing through it
        super().__init__(model, device=device)


class BatchExporter(Exporter):
    """No constructor of its own: building it runs Exporter.__init__ as called."""


def start(model):
    return LiveRenderer(model), BatchExporter(model)
