"""Caffe2-compatible proposal generation for the legacy tracing export."""
import torch


def generate_proposals(scores, deltas, im_info, anchors, pre_nms_top_n=6000):
    rois, roi_probs = torch.ops._caffe2.GenerateProposals(
        scores, deltas, im_info, anchors, 1.0, pre_nms_top_n, 1000, 0.7, 0.0, True, -90, 90, 1.0, True
    )
    return rois, roi_probs
