"""The ``barbu-sim study ...`` commands: the studies whose tables and charts are published in ``results/``."""
