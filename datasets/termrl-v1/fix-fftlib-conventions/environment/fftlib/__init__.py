"""fftlib: a small pure-Python FFT toolkit (numpy.fft conventions)."""
from .core import fft, ifft
from .real import rfft, irfft
from .conv import convolve
from .helpers import fftfreq, fftshift, ifftshift

__all__ = ["fft", "ifft", "rfft", "irfft", "convolve", "fftfreq", "fftshift", "ifftshift"]
