import torch

from talker.detector import FaceDetector, MotionModel, build_tracker, load_audio_encoder, load_landmarks


class LipSyncPipeline:
    def __init__(self, device, audio_ckpt, landmark_ckpt, options):
        self.detector = FaceDetector(device=device)
        self.audio = load_audio_encoder(audio_ckpt, device)
        self.landmarks = load_landmarks(landmark_ckpt)
        self.factories = {"tracker": build_tracker}
        self.tracker = self.factories["tracker"](device=device)
        self.options = options

    def reference(self, frames):
        # a call that spreads its arguments may or may not pass device
        motion = MotionModel(**self.options)
        return motion(frames)

    def __call__(self, frames, audio):
        faces = self.detector(frames)
        return faces, self.audio(audio), self.landmarks, self.tracker(faces)


def make_pipeline(audio_ckpt, landmark_ckpt):
    return LipSyncPipeline(torch.device("npu"), audio_ckpt, landmark_ckpt, {"device": "npu"})


def make_decoder(dims):
    from talker.layers import Decoder

    return Decoder(dims, torch.device("npu"))

