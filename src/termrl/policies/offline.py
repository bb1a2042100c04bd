"""Never reach a model hub: every model is a local folder or file.

Importing this module switches the Hugging Face libraries offline (unless the environment already
says otherwise). They read the switches when they are first imported, so every termrl module that
imports ``transformers`` at import time imports this module before it.
"""

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
