"""barbu-sim: a fast simulator and analytics tool for the card game Barbu."""

__version__ = "0.1.0"
