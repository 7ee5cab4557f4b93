from .ops import ShiftBoxes, nms_rotated

__all__ = ["ShiftBoxes", "nms_rotated"]
