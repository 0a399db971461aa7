"""Every help screen: its examples run as written, it lists every built-in choice, it shows no placeholder.

The examples are the lines of a command's help text that start with ``barbu-sim``; they run
in-process (typer's CliRunner) in a temporary directory, in the order the help gives them, so
``run --out X`` then ``report X`` work.  Lines that need a Ray cluster (``--backend ray``) are
skipped; every command must still have at least one example that runs.
"""

import re
import shlex

import pytest
import typer
from typer.testing import CliRunner

from barbu_sim.cli import app

runner = CliRunner()
SKIP_RULE = "--backend ray"  # examples for a Ray cluster: not run here


def command_tree():
    """``(path, click command)`` for the root, every group and every command, depth first."""
    out = []

    def walk(path, command):
        out.append((path, command))
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            walk((*path, name), sub)

    walk((), typer.main.get_command(app))
    return out


COMMANDS = command_tree()
IDS = [" ".join(path) or "barbu-sim" for path, _ in COMMANDS]


def examples(command) -> list[str]:
    """The example lines of a command's help text (each may chain commands with ``&&``)."""
    lines = []
    for line in (command.help or "").splitlines():
        line = line.strip()
        if line.startswith("Example: "):
            line = line[len("Example: "):]
        if line.startswith("barbu-sim "):
            lines.append(line)
    return lines


def help_screen(path) -> str:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "250", "TERMINAL_WIDTH": "250"})
    assert result.exit_code == 0, result.output
    return result.output


def test_the_tree_holds_every_command():
    names = {" ".join(p) for p, _ in COMMANDS}
    assert len(COMMANDS) >= 18
    assert {"run", "report", "plot", "verify-games", "advise", "clabber", "clabber report", "clabber plot",
            "clabber advise", "rules", "clabber rules"} <= names


@pytest.mark.parametrize("path,command", COMMANDS, ids=IDS)
def test_examples_run_as_written(path, command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = examples(command)
    assert lines, f"{' '.join(path) or 'barbu-sim'} --help has no example"
    ran = 0
    for line in lines:
        if SKIP_RULE in line:
            continue
        for step in line.split("&&"):
            words = shlex.split(step)
            assert words[0] == "barbu-sim", step
            args = words[1:]
            if args[:1] == ["run"] or args[:2] == ["clabber", "run"]:
                args.append("--no-progress")  # the bar goes to stderr; the command is the same
            result = runner.invoke(app, args)
            assert result.exit_code == 0, f"{step.strip()}\n{result.output}"
            assert "Traceback" not in result.output
            ran += 1
    assert ran >= 1, f"every example of {' '.join(path)} needs Ray: give one that runs as written"
    # an example shown is an example that runs: each appears whole in the help screen users read
    screen = help_screen(path)
    for line in lines:
        assert line in screen, f"{line!r} is wrapped or altered in the help screen"


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=IDS)
def test_no_placeholders_in_help(path):
    screen = help_screen(path)
    raw_types = re.findall(r"<(?:bool|str|int|float|text|list\[[a-z]+\]|path)>", screen)
    assert not raw_types, f"raw type placeholders {raw_types} in {' '.join(path)} --help"
    fields = re.findall(r"\{[a-z_]+\}", screen)
    assert not fields, f"template fields {fields} in {' '.join(path)} --help"


def option_help(path, option) -> str:
    """The help text of one option, whitespace-normalised (wrapped lines rejoined)."""
    command = dict(COMMANDS)[tuple(path)]
    [param] = [p for p in command.params if option in p.opts]
    return " ".join(param.help.split())


def test_barbu_strategies_are_listed():
    from barbu_sim.barbu.players.mc.player import ROLLOUTS
    from barbu_sim.barbu.players.registry import BUILTINS, REGISTRY
    names = [*BUILTINS, *REGISTRY.parametric]
    assert len(names) >= 5
    for path in (["play"], ["run"], ["game"], ["compare-orders"], ["advise"]):
        text = option_help(path, "--strategy")
        for name in names:
            assert re.search(rf"\b{name}\b", text), f"{' '.join(path)} --strategy omits {name}"
        for rollout in ROLLOUTS:
            assert rollout in text.split("rollout=", 1)[1], f"{' '.join(path)} --strategy omits rollout {rollout}"


def test_clabber_strategies_and_bidding_are_listed():
    from barbu_sim.clabber.players.bidding import POLICIES
    from barbu_sim.clabber.players.registry import BUILTINS
    assert len(BUILTINS) >= 2 and len(POLICIES) >= 4
    for command in ("play", "run", "game", "advise"):
        strategies = option_help(["clabber", command], "--strategy")
        for name in BUILTINS:
            assert re.search(rf"\b{name}\b", strategies), f"clabber {command} --strategy omits {name}"
        bidding = option_help(["clabber", command], "--bidding")
        for name in POLICIES:
            assert re.search(rf"(^|[ :,]){name}\b", bidding), f"clabber {command} --bidding omits {name}"


def test_barbu_rule_presets_contracts_and_choices_are_listed():
    from barbu_sim.barbu.rules.choices import DOMINO_POLICIES, TRUMP_POLICIES
    from barbu_sim.barbu.rules import CONTRACTS, PRESETS
    for path in (["rules"], ["play"], ["run"], ["game"], ["compare-orders"], ["advise"], ["verify-games"]):
        for name in PRESETS:
            assert name in option_help(path, "--rules"), f"{' '.join(path)} --rules omits {name}"
    for path in (["play"], ["run"]):
        for name in CONTRACTS:
            assert re.search(rf"(^|[ :,]){name}\b", option_help(path, "--contract"))
        for name in TRUMP_POLICIES:
            assert name in option_help(path, "--trump")
        for name in DOMINO_POLICIES:
            assert name in option_help(path, "--domino-rank")


def test_barbu_doubling_and_contract_policies_are_listed():
    from barbu_sim.barbu.game.doubling import DOUBLING_NAMES
    from barbu_sim.barbu.game.policies import make_contract_policy
    doubling = re.findall(r"[a-z-]+", DOUBLING_NAMES.replace(" or ", ", ").replace("MARGIN", ""))
    assert len(doubling) == 4
    for path in (["game"], ["compare-orders"], ["advise"]):
        for name in doubling:
            assert re.search(rf"\b{name}\b", option_help(path, "--doubling")), f"{' '.join(path)} omits {name}"
    with pytest.raises(ValueError) as e:  # the policies the parser knows, from its own error message
        make_contract_policy("no-such-policy", None, None)
    listed = re.split(r", | or ", str(e.value).split(": use ", 1)[1])
    known = [name for name in listed if "/" not in name]
    assert {"fixed", "myopic", "relative", "optimal", "raw-optimal"} <= set(known)
    for path, option in ((["game"], "--contract-policy"), (["compare-orders"], "--policies")):
        for name in known:
            assert name in option_help(path, option), f"{' '.join(path)} {option} omits {name}"


@pytest.mark.parametrize("command", ["play", "game", "advise", "run"])
def test_clabber_default_bidding_is_explained(command):
    """run defaults to accept-first, the others to threshold: each help says which, and why they differ."""
    text = option_help(["clabber", command], "--bidding")
    own, other = ("accept-first", "threshold") if command == "run" else ("threshold", "accept-first")
    assert f"Default {own}" in text and other in text.split("Default", 1)[1]
    params = {p.name: p for p in dict(COMMANDS)[("clabber", command)].params}
    default = params["bidding"].default
    assert default == (None if command == "run" else "threshold")  # run: accept-first, set in the command


@pytest.mark.parametrize("module", ["barbu_sim", "barbu_sim.cli"])
def test_python_dash_m_is_the_command(module):
    """``python -m barbu_sim`` (and ``python -m barbu_sim.cli``) is ``barbu-sim``, named so in its usage."""
    import subprocess
    import sys

    from barbu_sim import __version__
    shown = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=120,
                           env={**__import__("os").environ, "COLUMNS": "200"})
    assert shown.returncode == 0, shown.stderr
    assert "Usage: barbu-sim [OPTIONS] COMMAND" in shown.stdout and "clabber" in shown.stdout
    version = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True, timeout=120)
    assert version.returncode == 0 and version.stdout.strip() == f"barbu-sim {__version__}"
    wrong = subprocess.run([sys.executable, "-m", module, "rules", "--rules", "casino"], capture_output=True,
                           text=True, timeout=120)
    assert wrong.returncode == 2 and wrong.stderr.startswith("Error: ") and "Traceback" not in wrong.stderr
