"""Clabber's study commands: ``barbu-sim clabber ladder`` and ``barbu-sim clabber study ...``."""
