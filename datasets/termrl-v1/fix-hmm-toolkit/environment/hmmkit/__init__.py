"""hmmkit: small discrete hidden Markov model toolkit (numpy only)."""
from .hmm import DiscreteHMM

__all__ = ["DiscreteHMM"]
__version__ = "0.4.2"
