"""``barbu-sim compile``: compile the engines the commands need, once, up front, engine by engine.

The command lists each engine with the commands that use it and whether numba's disk cache holds
it for this code; then compiles those it does not hold, one at a time, saying which and for how
long.  It asks the same functions the commands call which kernel they need
(:func:`barbu_sim.core.compiling.probe`), and compiles into the same code-stamped cache
(:mod:`barbu_sim.core.jit`): nothing is shipped, and nothing but what a command would compile is.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Annotated, Callable

import typer

from .app import app, fail, interrupted

GAMES = ("barbu", "clabber", "all")
HAND, TURNED = "JS 9S AS KH 10D AC", "QS"  # a legal Clabber hand for the hand evaluator (position 1)


@dataclass(frozen=True)
class Engine:
    """One engine: its game, the commands that compile it on first use, and a call that makes it ready as
    they do (stopped before it compiles by :func:`~barbu_sim.core.compiling.probe`).  ``mc``: an engine
    with the Monte-Carlo player, compiled with ``--with-mc`` only (minutes each)."""

    game: str
    commands: str
    ready: Callable[[], object]
    mc: bool = False


def _barbu_seats(*strategies: str):
    from ..barbu.api import Seats
    return Seats.of(list(strategies) + ["heuristic"] * (4 - len(strategies)))


def _bot(spec: str):
    from ..barbu.table.deal import Bot
    return Bot(spec)


def _estimator():
    from ..barbu.review.estimate import estimator_ready
    estimator_ready()


def _clabber(name: str, **kwargs):
    from ..clabber import api
    calls = {"play": lambda: api.play_round(**kwargs), "run": lambda: api.play_rounds(0, 0, 1, **kwargs),
             "games": lambda: api.play_games(0, 0, 1, **kwargs), "sheet": lambda: api.game_sheet(0, 0, **kwargs)}
    return calls[name]()


def _clabber_advise():
    from ..clabber.game.advice import advise
    advise(HAND, TURNED, 1)


def _clabber_bid_review():
    # the bidding review plays every option out with mc: the engine its call_values picks for mc seats
    from ..clabber.api import _engine
    from ..clabber.engine.bid_values import bid_values_kernel
    from ..clabber.players.registry import seat_strategies
    from ..clabber.review.bidding import DEFAULT_SAMPLES
    _engine(bid_values_kernel, seat_strategies(f"mc:samples={DEFAULT_SAMPLES}")[0])


# In the order a newcomer meets them (the README's first line first).
ENGINES = [
    Engine("barbu", "run, game, compare-orders", lambda: _barbu_seats().batch_kernel()),
    Engine("barbu", "play, game, compare-orders", lambda: _barbu_seats().one_kernel()),
    Engine("barbu", "advise, run with a learned seat", lambda: _barbu_seats("learned").batch_kernel()),
    Engine("barbu", "play with a learned seat", lambda: _barbu_seats("learned").one_kernel()),
    Engine("barbu", "table, its heuristic bots", lambda: _bot("heuristic")),
    Engine("barbu", "table's hints, review", _estimator),
    Engine("clabber", "clabber run", lambda: _clabber("run")),
    Engine("clabber", "clabber play", lambda: _clabber("play")),
    Engine("clabber", "clabber game", lambda: _clabber("games")),
    Engine("clabber", "clabber game --show", lambda: _clabber("sheet")),
    Engine("clabber", "clabber advise", _clabber_advise),
    Engine("clabber", "review of a Clabber round", _clabber_bid_review),
    Engine("barbu", "play with an mc seat", lambda: _barbu_seats("mc").one_kernel(), mc=True),
    Engine("barbu", "run, compare with an mc seat", lambda: _barbu_seats("mc").batch_kernel(), mc=True),
    Engine("barbu", "table with an mc bot", lambda: _bot("mc"), mc=True),
    Engine("clabber", "clabber play with an mc seat", lambda: _clabber("play", strategies="mc"), mc=True),
    Engine("clabber", "clabber run with an mc seat", lambda: _clabber("run", strategies="mc"), mc=True),
]


def _cache_words(needs) -> str:
    """Where numba keeps the compiled engines, in words."""
    import os
    if os.environ.get("NUMBA_CACHE_DIR"):
        return f"$NUMBA_CACHE_DIR, {os.environ['NUMBA_CACHE_DIR']}"
    places = [p for p in (need.cache_place() for need in needs) if p]
    if places and all(os.path.basename(p) == "__pycache__" for p in places):
        return "the __pycache__ folders beside the modules"
    return os.path.commonpath(places) if places else "its usual place"


def _kept(compiled: int) -> str:
    """What a Ctrl-C leaves: the engines compiled before it."""
    if not compiled:
        return "no engine was compiled before it; run barbu-sim compile again to go on"
    engines = "the engine compiled before it is" if compiled == 1 else f"the {compiled} engines compiled before it are"
    return f"{engines} cached; run barbu-sim compile again to go on"


def _engines(n: int) -> str:
    return f"{n} engine{'' if n == 1 else 's'}"


def _say(text: str) -> None:
    print(text, flush=True)


@app.command("compile")
def compile_engines(
    game: Annotated[str, typer.Option(metavar="GAME", help="Whose engines: barbu, clabber or all.")] = "all",
    with_mc: Annotated[bool, typer.Option(
        "--with-mc", help="Also the engines with the Monte-Carlo player (mc seats and bots): 1 to 1.5 minutes each "
                          "on an idle machine.")] = False,
    list_only: Annotated[bool, typer.Option(
        "--list", help="Only list the engines and whether each is cached; compile nothing.")] = False,
):
    """Compile the engines the commands need, once, so that no later command waits for the compiler.

    numba compiles each engine the first time a command needs it (about 20 s to a minute each on
    an idle machine, several times that on a busy one) and keeps it in its disk cache, where every
    later command finds it in about a second. Run once after installing, this command pays that
    wait up front, and for less: it lists each engine with the commands that use it, skips those
    already cached, and compiles the others one by one in one process, where the functions they
    share compile once (about 3 minutes of CPU for both games on the 2-core machine), with the
    seconds so far on a terminal. It compiles exactly what those commands would, into the same
    cache, stamped with the package's code and built for this machine's CPU (after an upgrade or an
    edit of the package, the commands compile again on first use, or run this again). Run again,
    it compiles nothing and returns in about a second. Ctrl-C stops it; the engines compiled before
    are kept.

    The examples only list (--list): the same lines without --list compile what they list as not
    compiled.

    Examples:

      barbu-sim compile --list

      barbu-sim compile --game barbu --list

      barbu-sim compile --game clabber --with-mc --list
    """
    from ..core import compiling
    if game not in GAMES:
        fail(f"--game is barbu, clabber or all, not {game!r}")
    chosen = [e for e in ENGINES if game in ("all", e.game)]
    wanted = [e for e in chosen if with_mc or not e.mc]
    left_out = [e for e in chosen if e not in wanted]
    started = time.perf_counter()
    compiled: list[float] = []
    try:
        needs = [compiling.probe(e.ready) for e in wanted]  # importing the engines' modules: the second's wait
        ready = [need.ready() for need in needs]
        to_do = len(ready) - sum(ready)
        _say(f"{'Barbu and Clabber' if game == 'all' else game.capitalize()}: {_engines(len(needs))}, {sum(ready)} "
             f"of them in numba's cache already ({_cache_words(needs)})")
        load, cpus = compiling.machine_load()
        if to_do and not list_only and compiling.is_busy(load, cpus):
            _say(f"This machine is busy (load {load:.1f} on {cpus} cores): each compile takes longer than its idle "
                 "figure.")
        width = len(str(len(needs)))
        for k, (engine, need, done) in enumerate(zip(wanted, needs, ready), 1):
            head = f"[{k:>{width}}/{len(needs)}] {need.what} ({engine.commands})"
            # a first use's figure: compiled after others, an engine takes less (they share functions, compiled once)
            about = compiling.idle_estimate(need.estimate_s).replace("about", "up to about", 1)
            if done:
                _say(f"{head}: cached")
            elif list_only:
                _say(f"{head}: not compiled{', ' + about if about else ''}")
            else:
                _say(f"{head}: compiling{', ' + about if about else ''} ...")
                compiled.append(need.compile(sys.stdout))
                _say(f"[{k:>{width}}/{len(needs)}] compiled {need.what} in {compiling.duration(compiled[-1])}")
    except KeyboardInterrupt:
        interrupted(_kept(len(compiled)))
    if list_only:
        total = sum(need.estimate_s or 0 for need, done in zip(needs, ready) if not done)
        at_most = f" (at most about {compiling.duration(total)} on an idle machine)" if total else ""
        again = f"barbu-sim compile{'' if game == 'all' else ' --game ' + game}{' --with-mc' if with_mc else ''}"
        _say(f"{to_do} to compile{at_most}: {again} compiles them." if to_do else "0 to compile.")
    elif compiled:
        _say(f"Compiled {_engines(len(compiled))} in {compiling.duration(time.perf_counter() - started)}; the commands "
             "above now start without compiling.")
    else:
        _say("Nothing to compile: the commands above start without compiling.")
    if left_out:
        _say(f"Not included: {_engines(len(left_out))} with the Monte-Carlo player (--with-mc), compiled on the "
             "first use of an mc seat or bot.")
