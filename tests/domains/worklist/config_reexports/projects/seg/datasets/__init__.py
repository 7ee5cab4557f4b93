from .captions import CaptionSet
