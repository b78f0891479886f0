"""Fake ``cupyx.scipy.special``: what minitape takes from CuPy's SciPy functions (``erf``)."""
import cupy

erf = cupy._sb.strict.special.erf
