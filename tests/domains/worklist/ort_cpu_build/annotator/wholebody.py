"""Whole-body pose estimation with two ONNX sessions (detector, pose)."""
import onnxruntime as ort


class Wholebody:
    def __init__(self, rank=0):
        device = f"cuda:{rank}"
        providers = ["CPUExecutionProvider"] if device == "cpu" else ["CUDAExecutionProvider"]
        self.det = ort.InferenceSession("yolox_l.onnx", providers=providers)
        self.pose = ort.InferenceSession("dw-ll_ucoco_384.onnx", providers=providers)

    def __call__(self, image):
        boxes = self.det.run(None, {"input": image})
        return self.pose.run(None, {"input": boxes[0]})
