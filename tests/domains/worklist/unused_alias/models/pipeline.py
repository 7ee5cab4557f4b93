import transformers

from models.t5 import T5EncoderModel
from models.t5 import parallelize as place
from models.t5 import shard as split_model


def load(model):
    return place(model)


def encoder_class(name):
    if name == "T5EncoderModel":
        # shadows the import of the project's copy above: that copy is never used
        from transformers import T5EncoderModel

        return T5EncoderModel
    return transformers.AutoModel
