import torch
from torch.autograd import Function

from rotbox import _C


def nms_rotated(boxes, scores, iou_threshold):
    return torch.ops.rotbox.nms_rotated(boxes, scores, iou_threshold)


class _ShiftBoxes(Function):
    @staticmethod
    def forward(ctx, boxes, dx):
        ctx.dx = dx
        return _C.shift_boxes(boxes, dx)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class ShiftBoxes(torch.nn.Module):
    def __init__(self, dx):
        super().__init__()
        self.dx = dx

    def forward(self, boxes):
        return _ShiftBoxes.apply(boxes, self.dx)
