"""``python -m barbu_sim``: the same as the ``barbu-sim`` command."""

from .cli import app

app(prog_name="barbu-sim")
