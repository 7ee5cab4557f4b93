from .pipelines.mel import MelPipeline
from .pipelines.video import VideoPipeline
from .utils.dynamic import get_class_from_dynamic_module
