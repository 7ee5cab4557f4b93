from diffusers import MelPipeline


def test_sequential_offload():
    pipe = MelPipeline()
    pipe.enable_sequential_cpu_offload()
    assert pipe("x") is not None
