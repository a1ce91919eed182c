"""A referee for tournaments between bots playing Reiner Knizia's Modern Art."""

__version__ = "0.1.0"
