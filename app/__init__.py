"""Muster: an army builder and points calculator for historical miniature wargames."""

__version__ = "0.1.0"
