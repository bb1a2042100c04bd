from .errors import TemplateError
from .render import render

__all__ = ["render", "TemplateError"]
