class RegisterTables:
    def __init__(self):
        self.model_classes = {}

    def register(self, table, key):
        def wrap(cls):
            getattr(self, table)[key] = cls
            return cls

        return wrap


tables = RegisterTables()
