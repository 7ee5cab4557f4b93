import os

annotator_ckpts_path = os.path.join(os.path.dirname(__file__), "ckpts")
