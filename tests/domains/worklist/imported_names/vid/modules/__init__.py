from .model import VideoModel
