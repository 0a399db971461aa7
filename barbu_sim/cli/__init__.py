"""The ``barbu-sim`` command line: one typer app, one module of commands per game."""

from . import barbu as _barbu  # noqa: F401  (registers the Barbu commands on the app)
from . import games as _games  # noqa: F401  (registers the full-game commands)
from . import review as _review  # noqa: F401  (registers review, of both games' files)
from . import table as _table  # noqa: F401  (registers table and sheet)
from . import clabber as _clabber  # noqa: F401  (registers `barbu-sim clabber ...`)
from . import studies as _studies  # noqa: F401  (registers compare and clabber compare)
from . import study as _study  # noqa: F401  (registers `barbu-sim study ...`)
from . import clabber_studies as _clabber_studies  # noqa: F401  (registers clabber ladder and clabber study)
from . import train as _train  # noqa: F401  (registers `barbu-sim train ...` and `barbu-sim clabber train`)
from . import compile as _compile  # noqa: F401  (registers `barbu-sim compile`)
from .app import app

__all__ = ["app"]
