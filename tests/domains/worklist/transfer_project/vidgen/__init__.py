"""Video generation: text-to-video sampling and training."""
