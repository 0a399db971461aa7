"""``python -m barbu_sim.cli``: the same as the ``barbu-sim`` command."""

from . import app

app(prog_name="barbu-sim")
