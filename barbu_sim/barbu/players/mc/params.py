"""The ``mc`` and ``pimc`` players' names and parameters, without the players themselves.

The strategy registry reads them here, so that knowing a seat's strategy id never
imports (or compiles) the Monte-Carlo player.  The kernels receive the parameters packed
into the seat's strategy id (:func:`mc_id`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ....core.fields import BitFields
from ..ids import BASIC, HEURISTIC, KIND_BITS, LEARNED, MC, RANDOM

# An mc seat's strategy id: the fields in order from the lowest bit, with their widths (the kernels
# read them back with the MC_*_SHIFT / MC_*_MASK constants below; tests/test_layouts.py pins them).
MC_ID = BitFields([
    ("kind", KIND_BITS),  # MC (see ids.is_mc)
    ("rollout", 4),  # the rollout player's id (ROLLOUTS)
    ("samples", 24),  # layouts per decision, up to MAX_SAMPLES
    ("endgame", 4),  # tricks left when the decisions are searched exactly (up to MAX_DEPTH)
    ("tail", 4),  # tricks left when the rollouts hand over to the exact search
    ("halving", 1),  # sequential halving on (1) or off (0)
    ("infer", 7),  # a layout's weight per unexpected play, percent (100: no inference)
    ("early", 7),  # z of the early drops, in tenths (0: none)
    ("policy", 2),  # policy inference: 0 off, else the table whose fitted temperatures it uses (POLICY_TABLES)
])
MC_ROLLOUT_SHIFT, MC_ROLLOUT_MASK = MC_ID.shift("rollout"), MC_ID.mask("rollout")
MC_SAMPLES_SHIFT, MC_SAMPLES_MASK = MC_ID.shift("samples"), MC_ID.mask("samples")
MC_ENDGAME_SHIFT, MC_ENDGAME_MASK = MC_ID.shift("endgame"), MC_ID.mask("endgame")
MC_TAIL_SHIFT, MC_TAIL_MASK = MC_ID.shift("tail"), MC_ID.mask("tail")
MC_HALVING_SHIFT, MC_HALVING_MASK = MC_ID.shift("halving"), MC_ID.mask("halving")
MC_INFER_SHIFT, MC_INFER_MASK = MC_ID.shift("infer"), MC_ID.mask("infer")
MC_EARLY_SHIFT, MC_EARLY_MASK = MC_ID.shift("early"), MC_ID.mask("early")
MC_POLICY_SHIFT, MC_POLICY_MASK = MC_ID.shift("policy"), MC_ID.mask("policy")

DEFAULT_SAMPLES = 64
MAX_SAMPLES = 100_000
# Tricks left when the decisions are searched exactly (see MCParams): 3, with a tail of 2, gained
# nothing measurable over rollouts and cost a third of the speed (docs/strategies.md).
DEFAULT_ENDGAME = 2
DEFAULT_TAIL = 0  # tricks left when the rollouts hand over to the exact search (0: never; see DEFAULT_ENDGAME)
DEFAULT_HALVING = True  # sequential halving over the candidate cards (see player.mc_choose)
DEFAULT_INFER = 70  # a layout's weight per play the model would not have made, percent (see MCParams)
DEFAULT_EARLY = 0  # early drops: z of the paired confidence bound, in tenths (0: none; see values.race)
LOOK = 8  # early drops: layouts between two looks at the cards still in play
MAX_DEPTH = 5  # a 6-trick search takes tens of milliseconds per layout
ROLLOUTS = {"heuristic": HEURISTIC, "basic": BASIC, "random": RANDOM, "learned": LEARNED}
# mc's rollout player (and the model of its inference): learned, which beat heuristic rollouts by +4.43 (+3.30 ..
# +5.55) points over the seven contracts among learned1 (docs/strategies.md); pimc keeps heuristic (PIMC_ROLLOUT), and
# mc1 (the registry) is mc with heuristic rollouts, as mc was before.
DEFAULT_ROLLOUT = "learned"
PIMC_ROLLOUT = "heuristic"
# Policy inference (mc:infer=policy): a layout's weight is the product, over the other seats' plays so far, of
# each play's probability under (1 - eps) * softmax(learned's card scores / T) + eps / (legal cards).  T and eps
# were fitted by maximum likelihood, per contract, on plays of a table of four of one player
# (barbu-sim train temperatures, results/policy_temperature.json; tests/test_mc_learned.py checks they agree).
# Row 0 is unused (policy off); rows 1.. follow POLICY_TABLES; columns follow the contracts (CONTRACTS).
POLICY_TABLES = ("learned", "heuristic", "basic")
POLICY_TEMPERATURE = (
    (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
    (0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01),  # learned
    (0.5617, 1.1205, 1.4106, 3.9744, 1.5827, 0.7934, 3.1572),  # heuristic
    (0.5617, 1.4106, 1.4106, 28.1216, 3.5423, 0.7934, 3.1572),  # basic
)
POLICY_EPSILON = (
    (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    (0.001, 0.001, 0.001, 0.001, 0.001, 0.001, 0.001),  # learned
    (0.1, 0.02, 0.2, 0.3, 0.05, 0.001, 0.001),  # heuristic
    (0.1, 0.001, 0.2, 0.3, 0.001, 0.001, 0.001),  # basic
)
LOG_WEIGHT_FLOOR = -300.0  # a layout's log-weight is never below this: squared weights stay above 0 in float64
MC_ONLY = ("endgame", "tail", "halving", "infer", "early")
assert MAX_SAMPLES <= MC_SAMPLES_MASK and MAX_DEPTH <= min(MC_ENDGAME_MASK, MC_TAIL_MASK) \
    and max(ROLLOUTS.values()) <= MC_ROLLOUT_MASK and len(POLICY_TABLES) <= MC_POLICY_MASK, \
    "an mc parameter's field is too narrow"


@dataclass(frozen=True)
class MCParams:
    """An mc seat's parameters: layouts per decision, the rollout player, the exact-endgame depths.

    ``endgame``: decisions with at most this many tricks left (the current one included; in
    Domino, at most four cards a trick left in the hands) are valued by exact search in each
    layout (:mod:`barbu_sim.barbu.players.endgame`) instead of rollouts;
    ``tail``: rollouts from earlier decisions stop when this many tricks are left and the rest
    is searched exactly.  0 turns either off.  ``halving``: sequential halving over the
    candidate cards (see :func:`mc_choose`).  ``infer``: a layout's weight, in percent, for each
    earlier play of another seat that the rollout player would not have made from that
    layout (100: every layout counts the same).  ``policy``: instead, policy inference (``infer=policy``,
    ``infer=policy:heuristic``): each earlier play of another seat weighs the layout by its probability
    under a softmax of the learned player's card scores, with the temperatures fitted on plays of the
    table named (:data:`POLICY_TEMPERATURE`; "" off).  ``rollout``: the player of the rollouts at every seat,
    and the model of ``infer=P``: ``learned`` by default (:data:`DEFAULT_ROLLOUT`; ``mc1`` is ``mc`` with
    ``heuristic`` rollouts, as ``mc`` was before).  ``pimc`` is ``mc`` with the search, the halving and the
    inference off, and ``heuristic`` rollouts by default.
    """

    samples: int = DEFAULT_SAMPLES
    rollout: str = DEFAULT_ROLLOUT
    endgame: int = DEFAULT_ENDGAME
    tail: int = DEFAULT_TAIL
    halving: bool = DEFAULT_HALVING
    infer: int = DEFAULT_INFER
    early: int = DEFAULT_EARLY
    policy: str = ""

    @property
    def sid(self) -> int:
        """The strategy id that carries the parameters to the kernels."""
        return mc_id(self.samples, ROLLOUTS[self.rollout], self.endgame, self.tail, self.halving, self.infer,
                     self.early, POLICY_TABLES.index(self.policy) + 1 if self.policy else 0)

    def spec(self, name: str = "mc") -> str:
        """The full name with every parameter (``pimc`` shows no depths: they are 0)."""
        text = f"{name}:samples={self.samples},rollout={self.rollout}"
        if name == "pimc":
            return text
        infer = (("policy" if self.policy == "learned" else f"policy:{self.policy}") if self.policy
                 else self.infer)
        return (f"{text},endgame={self.endgame},tail={self.tail},halving={'on' if self.halving else 'off'},"
                f"infer={infer},early={f'{self.early / 10:g}' if self.early else 'off'}")


def mc_id(samples: int = DEFAULT_SAMPLES, rollout: int = HEURISTIC, endgame: int = 0, tail: int = 0,
          halving: bool = False, infer: int = 100, early: int = 0, policy: int = 0) -> int:
    """The strategy id that carries an mc seat's parameters to the kernels (``early``: z in tenths, 0: off;
    ``policy``: 0 off, else 1 + the index of a table of :data:`POLICY_TABLES`; see :data:`MC_ID`).
    ValueError for a value too wide for its field."""
    return MC_ID.pack(kind=MC, rollout=rollout, samples=samples, endgame=endgame, tail=tail, halving=int(halving),
                      infer=infer, early=early, policy=policy)


def needs_model(sid: int) -> bool:
    """True when an mc seat's strategy id reads the learned player's model (learned rollouts or policy inference),
    so that the kernels must be given it."""
    if MC_ID.get(sid, "kind") != MC:
        return False
    return MC_ID.get(sid, "rollout") == LEARNED or MC_ID.get(sid, "policy") != 0


def _depth(key: str, value: str) -> int:
    if not value.isdigit() or not 0 <= int(value) <= MAX_DEPTH:
        raise ValueError(f"mc {key} must be a whole number of tricks from 0 to {MAX_DEPTH}, not {value!r}")
    return int(value)


def _early(value: str) -> int:
    """``early=Z`` (a number of standard errors, 1 to 12.7, in tenths) or ``early=off`` (0)."""
    if value == "off":
        return 0
    try:
        z = float(value)
    except ValueError:
        z = 0.0
    if not 1.0 <= z <= 12.7 or round(z * 10) != z * 10:
        raise ValueError(f"mc early must be off or a number of standard errors from 1 to 12.7 (one decimal), "
                         f"not {value!r}")
    return round(z * 10)


def _infer(value: str) -> tuple[int, str]:
    """``infer=P`` (a percentage; policy off) or ``infer=policy`` / ``infer=policy:TABLE`` (100, TABLE)."""
    kind, colon, table = value.partition(":")
    if kind == "policy":
        table = table if colon else "learned"
        if table not in POLICY_TABLES:
            raise ValueError(f"mc infer=policy takes the table its temperatures were fitted on, one of "
                             f"{', '.join(POLICY_TABLES)} (infer=policy:heuristic), not {table!r}")
        return 100, table
    if not value.isdigit() or not 1 <= int(value) <= 100:
        raise ValueError(f"mc infer must be a whole percentage from 1 to 100 (100: off) or policy[:TABLE], "
                         f"not {value!r}")
    return int(value), ""


def repeated_check(name: str):
    """A function of each ``key`` (and its ``item``, ``key=value``) of one player string that refuses a key given
    twice (``mc:samples=64,samples=8``), which would otherwise be taken silently, the last one winning."""
    seen: dict[str, str] = {}

    def given(key: str, item: str) -> None:
        if key in seen:
            raise ValueError(f"{name} parameter {key} is given twice ({seen[key]} and {item}): "
                             "give each parameter once")
        seen[key] = item
    return given


def parse_mc(params: str, name: str = "mc") -> MCParams:
    """The parameters in the text after ``mc:`` (``samples=64,rollout=basic,endgame=3,tail=2``; empty: defaults,
    learned rollouts).

    ``pimc`` (``name``) is the plain determinized player: no exact endgames, no halving, no
    inference, and only ``samples`` and ``rollout`` to set.  Raises ValueError naming what is wrong.
    """
    found = {} if name == "mc" else {"rollout": PIMC_ROLLOUT, "endgame": 0, "tail": 0, "halving": False, "infer": 100,
                                     "early": 0}
    allowed = "samples=N, rollout=" + "|".join(ROLLOUTS)
    if name == "mc":
        allowed += ", endgame=N, tail=N, halving=on|off, infer=P|policy[:TABLE], early=Z|off"
    given = repeated_check(name)
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq:
            raise ValueError(f"{name} parameter {item!r} is not NAME=VALUE (e.g. {name}:samples=64,rollout=basic)")
        given(key, item)
        if key == "samples":
            if not value.isdigit() or not 1 <= int(value) <= MAX_SAMPLES:
                raise ValueError(f"{name} samples must be a whole number from 1 to {MAX_SAMPLES:,}, not {value!r}")
            found[key] = int(value)
        elif key == "rollout":
            if value not in ROLLOUTS:
                raise ValueError(f"{name} rollout must be one of {', '.join(ROLLOUTS)}, not {value!r}")
            found[key] = value
        elif key in ("endgame", "tail") and name == "mc":
            found[key] = _depth(key, value)
        elif key == "halving" and name == "mc":
            if value not in ("on", "off"):
                raise ValueError(f"mc halving must be on or off, not {value!r}")
            found[key] = value == "on"
        elif key == "infer" and name == "mc":
            found["infer"], found["policy"] = _infer(value)
        elif key == "early" and name == "mc":
            found[key] = _early(value)
        else:
            hint = " (pimc has no refinements to set: use mc for them)" if name == "pimc" and key in MC_ONLY else ""
            raise ValueError(f"unknown {name} parameter {key!r}: use {allowed}{hint}")
    return MCParams(**found)
