"""The training commands: ``barbu-sim train ...`` and ``barbu-sim clabber train``."""
