from projects.seg.datasets import CaptionSet
from projects.seg.models import MaskHead, Segmentor

model = dict(type=Segmentor, head=dict(type=MaskHead, dim=256))
train_dataloader = dict(dataset=dict(type=CaptionSet, rows=[]), batch_size=8)
