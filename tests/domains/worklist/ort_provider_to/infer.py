"""Face embedding with insightface (ONNX Runtime) beside a torch pipeline."""
import torch
from insightface.app import FaceAnalysis
from diffusers import StableDiffusionXLPipeline

device = "cuda"
face_detector = FaceAnalysis(name="buffalo_l", providers=["CUDAExecutionProvider"])
face_detector.prepare(ctx_id=0, det_size=(640, 640))

pipe = StableDiffusionXLPipeline.from_pretrained("base-model", torch_dtype=torch.float16).to("cuda")
