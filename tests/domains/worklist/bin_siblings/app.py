"""Gradio demo: generate a clip from a text prompt."""
import gradio as gr

from musicgen.model import MusicModel


def generate(prompt):
    return MusicModel("cpu").generate(prompt)


if __name__ == "__main__":
    gr.Interface(fn=generate, inputs="text", outputs="audio").launch()
