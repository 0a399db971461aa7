"""The Monte-Carlo players ``mc`` and ``pimc``.

- :mod:`.params`: their names and parameters, packed into a seat's strategy id (the registry
  reads them here without importing the player);
- :mod:`.layouts`: what the player knows of the hidden hands (inference from the rules and
  the play), sampled layouts, the scratch space's layout;
- :mod:`.values`: one layout's values of the candidate cards, early drops;
- :mod:`.player`: the decision: values over layouts, sequential halving, explain rows.

May import the core, ``state``, :mod:`...rules` and the other players.  This face imports
nothing (no numba).
"""
