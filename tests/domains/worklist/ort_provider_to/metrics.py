"""Face similarity of generated frames: an ONNX face detector, a torch
recognition model on `device`."""
import torch
from insightface.app import FaceAnalysis


def face_similarity(frames, reference, device="cuda"):
    detector = FaceAnalysis(name="antelopev2", providers=["CUDAExecutionProvider"])
    detector.prepare(ctx_id=0, det_size=(320, 320))
    recognizer = torch.jit.load("ir101.pt", map_location="cpu")
    recognizer = recognizer.to(device)
    faces = [detector.get(f) for f in frames]
    return recognizer, faces, reference
