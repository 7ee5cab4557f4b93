from .mask_head import MaskHead
from .segmentor import Segmentor
from .offline import OfflineExporter
