"""envload: read ENVFILE configuration files (see /app/ENVFILE.md)."""
from .errors import EnvError
from .parser import load, parse

__all__ = ["EnvError", "load", "parse"]
