"""The documentation's examples run, its shown output is real, its links resolve, docs/cli.md is current.

The conventions (also in docs/development.md):

- A fenced block whose info string is ``bash`` is runnable. Each of its lines is a
  command (``\\`` continues a line, ``&&`` chains commands, ``#`` starts a comment).
  ``barbu-sim ...`` commands run in-process through typer's ``CliRunner`` and must exit
  with code 0; the blocks of one page run in order in one temporary directory, so an
  example may use what an earlier one wrote (``report runs/study`` after
  ``run --out runs/study``). Big sizes are made small by :data:`SIZE_CAPS`. Lines that
  cannot run in a test are skipped only by :data:`SKIP_PREFIXES` / :data:`SKIP_CONTAINING`;
  any other line in a ``bash`` block fails the test.
- A ``console`` block shows real output: each ``$ barbu-sim ...`` line is run as written
  (no size caps) and what it prints to stdout must equal the lines that follow it, where a
  line ``...`` stands for any number of lines.
- A block whose first line is a comment naming a file (``# my_strategy.py``) is written
  to that file in the page's directory before its commands run, so plugin and TOML
  examples run as shown.
- A ``python`` block that does not name a file runs in-process, in order with the page's other
  examples (so it can read a run an earlier example wrote).
- ``text``, ``sh``, ``toml`` and unmarked blocks are not run.
"""

from __future__ import annotations

import re
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from barbu_sim.cli import app

ROOT = Path(__file__).resolve().parents[1]
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 200
MIN_EXAMPLES = 50  # barbu-sim commands the docs must run in all: the test cannot pass on zero examples

# Sizes in examples, made small for the test: per command, (the options that set a size, the
# largest value the test runs, whether the command's default is big and the cap must be added).
# A value given below the cap is kept, so `game -n 1 --show 0` runs as written.
SIZE_CAPS: dict[str, list[tuple[tuple[str, ...], int, bool]]] = {
    "run": [(("--deals", "-n"), 1000, True)],
    "clabber run": [(("--rounds", "-n"), 2000, True)],
    "game": [(("--games", "-n"), 1, True), (("--samples",), 8, True)],
    "clabber game": [(("--games", "-n"), 20, True)],
    # --games 0: no full games for win rates (with bayes doubling one costs seconds; `game` examples play games)
    "compare-orders": [(("--blocks",), 2, True), (("--games",), 0, True), (("--samples",), 8, True)],
    "advise": [(("--samples",), 50, True)],
    "clabber advise": [(("--samples",), 50, True)],
    "compare": [(("--deals", "-n"), 300, True)],
    "clabber compare": [(("--rounds", "-n"), 300, True)],
    # ladder caps
    "ladder": [(("--deals", "-n"), 300, True)],
    # study caps
    # every `study ...` command ("study" here): only shrunk, as doubling and convergence take no --deals (the
    # examples name their sizes); docs/studies.md writes the full-size commands in `sh` blocks, not run
    "study": [(("--deals", "-n"), 300, False), (("--confirm-deals",), 20, False), (("--blocks",), 3, False),
              (("--samples",), 10, False), (("--table-hands",), 60, False)],
    # clabber study caps
    "clabber ladder": [(("--rounds", "-n"), 40, True), (("--samples",), 4, True)],
    # `clabber study headline` and `clabber study strong` (both "clabber study" here): the sizes both take are
    # added, the others only shrunk (mc's bidding and the confirmation by mc are the slow parts)
    "clabber study": [(("--rounds", "-n"), 1000, True), (("--games",), 10, True), (("--sweep-rounds",), 100, True),
                      (("--sweep-games",), 10, True), (("--mc-rounds",), 40, False), (("--mc-games",), 10, False),
                      (("--mc-bid-rounds",), 40, False), (("--confirm-rounds",), 20, False)],
    # train caps
    # every `train` command takes --deals (temperatures: at least 14); --samples and --check-deals only some of them
    "train": [(("--deals", "-n"), 40, True), (("--samples",), 4, False), (("--check-deals",), 16, False)],
    "clabber train": [(("--rounds", "-n"), 40, True), (("--samples",), 4, True)],
}
# Lines of bash blocks that are not run here, and why.
SKIP_PREFIXES = (
    "pip install",  # installing the package: the test runs the installed one
    "python -m pytest",  # the suite itself
    "BARBU_REGEN_GOLDEN=1 python -m pytest",
    "python scripts/",  # studies and benchmarks (minutes to hours; the scripts have tests of their own)
    "ray start",  # starting a cluster
)
SKIP_CONTAINING = ("--backend ray",)  # needs Ray and a cluster; tests/test_ray.py covers the backend

FENCE = re.compile(r"^(\s*)(`{3,})\s*([\w+-]*)")
FILE_COMMENT = re.compile(r"^#\s*([\w.-]+\.(?:py|toml|txt))\b")


@dataclass
class Block:
    info: str
    lines: list[str]
    line_no: int  # of the opening fence, 1-based


@dataclass
class Page:
    path: Path
    blocks: list[Block] = field(default_factory=list)

    @property
    def name(self) -> str:
        return str(self.path.relative_to(ROOT)) if self.path.is_relative_to(ROOT) else self.path.name


def read_page(path: Path) -> Page:
    """The fenced code blocks of a Markdown file."""
    page = Page(path)
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info, start = m.group(2), m.group(3).lower(), i
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][len(m.group(1)):] if lines[i].startswith(m.group(1)) else lines[i])
            i += 1
        page.blocks.append(Block(info, body, start + 1))
        i += 1
    return page


def shell_commands(block: Block) -> list[tuple[int, list[str], str]]:
    """A bash block's commands: (line number, argv, the command as written), ``&&`` chains split."""
    out = []
    pending, pending_no = "", None
    for k, raw in enumerate(block.lines):
        if pending_no is None:
            pending_no = block.line_no + 1 + k
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        line, pending = pending + raw, ""
        no, pending_no = pending_no, None
        words = shlex.split(line, comments=True)
        command: list[str] = []
        for word in words + ["&&"]:
            if word == "&&":
                if command:
                    out.append((no, command, shlex.join(command)))
                command = []
            else:
                command.append(word)
    return out


def skipped(text: str) -> bool:
    return text.startswith(SKIP_PREFIXES) or any(s in text for s in SKIP_CONTAINING)


def subcommand(argv: list[str]) -> str:
    """``clabber run`` for ``barbu-sim clabber run ...``, ``run`` for ``barbu-sim run ...``."""
    words = [w for w in argv[1:3] if not w.startswith("-")]
    return " ".join(words[:2]) if words[:1] == ["clabber"] else (words[0] if words else "")


def small(argv: list[str]) -> list[str]:
    """The command with :data:`SIZE_CAPS` applied (``--resume`` runs keep their stored sizes)."""
    argv = list(argv)
    for options, cap, add in SIZE_CAPS.get(subcommand(argv), []):
        found = False
        for k, word in enumerate(argv):
            name, eq, value = word.partition("=")
            if name in options and eq:
                argv[k] = f"{name}={min(int(value), cap)}"
                found = True
            elif word in options and k + 1 < len(argv):
                argv[k + 1] = str(min(int(argv[k + 1]), cap))
                found = True
        if add and not found and "--resume" not in argv:
            argv += [options[0], str(cap)]
    return argv


def is_file_block(block: Block) -> bool:
    return bool(block.lines) and FILE_COMMENT.match(block.lines[0].strip()) is not None


def write_files(page: Page, where: Path) -> list[str]:
    """Write the blocks that name a file in their first line; the names written."""
    names = []
    for block in page.blocks:
        if block.lines and (m := FILE_COMMENT.match(block.lines[0].strip())):
            (where / m.group(1)).write_text("\n".join(block.lines) + "\n")
            names.append(m.group(1))
    return names


def invoke(argv: list[str]):
    result = CliRunner().invoke(app, argv[1:], prog_name="barbu-sim")
    return result


def explain(argv, result) -> str:
    import traceback
    tb = "".join(traceback.format_exception(result.exc_info[1])) if result.exc_info and result.exception else ""
    return f"`{shlex.join(argv)}` exited {result.exit_code}\n{result.output[-3000:]}\n{tb[-3000:]}"


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` lines match ``expected``, where a ``...`` line stands for any lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head.strip() == "...":
        return any(matches(rest, actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and actual[0].rstrip() == head.rstrip() and matches(rest, actual[1:])


def console_examples(block: Block) -> list[tuple[int, str, list[str]]]:
    """A console block's ``$ command`` lines with the output shown under each."""
    out = []
    for k, line in enumerate(block.lines):
        if line.startswith("$ "):
            out.append((block.line_no + 1 + k, line[2:], []))
        elif out:
            out[-1][2].append(line)
    return out


PAGES = [read_page(p) for p in DOC_FILES if p.exists()]


def runnable(page: Page) -> list:
    """The page's bash commands that the test runs (the skipped ones left out)."""
    return [c for b in page.blocks if b.info == "bash" for c in shell_commands(b) if not skipped(c[2])]


def test_enough_examples():
    """The docs hold runnable examples (the test cannot pass on zero of them)."""
    commands = [argv for page in PAGES for (_, argv, _) in runnable(page) if argv[0] == "barbu-sim"]
    consoles = [c for page in PAGES for b in page.blocks if b.info == "console" for c in console_examples(b)]
    assert len(commands) + len(consoles) >= MIN_EXAMPLES, (
        f"only {len(commands)} runnable barbu-sim examples and {len(consoles)} console examples in README.md and docs/")


@pytest.mark.parametrize("page", [p for p in PAGES if runnable(p) or any(b.info == "console" for b in p.blocks)],
                         ids=lambda p: p.name)
def test_examples_run(page, tmp_path, monkeypatch):
    """Every bash example of the page exits 0 (with small sizes); every console example prints what it shows."""
    monkeypatch.chdir(tmp_path)
    write_files(page, tmp_path)
    ran, timings = run_page(page)
    assert ran > 0, f"{page.name}: no example ran"
    slowest = sorted(timings, reverse=True)[:3]
    print(f"{page.name}: {ran} examples; slowest " + "; ".join(f"{t:.1f} s {c}" for t, c in slowest))


def test_a_broken_example_fails(tmp_path, monkeypatch):
    """The runner is not vacuous: a failing command, wrong shown output or an unrunnable line fail it."""
    monkeypatch.chdir(tmp_path)
    for block in (Block("bash", ["barbu-sim play -c no-such-contract"], 1),
                  Block("console", ["$ barbu-sim clabber rules", "Not what it prints"], 1),
                  Block("bash", ["ls runs"], 1)):
        with pytest.raises(AssertionError):
            run_page(Page(tmp_path / "broken.md", [block]))


def run_page(page: Page) -> tuple[int, list[tuple[float, str]]]:
    """Run the page's examples in order in the current directory: (examples run, bash timings)."""
    ran, timings = 0, []
    for block in page.blocks:
        if block.info == "bash":
            for line_no, argv, text in shell_commands(block):
                if skipped(text):
                    continue
                assert argv[0] == "barbu-sim", (
                    f"{page.name}:{line_no}: `{text}` cannot run in the docs test: run barbu-sim, mark the block "
                    "`console`/`text`, or add a visible rule to SKIP_PREFIXES in tests/test_docs.py")
                argv = small(argv)
                start = time.perf_counter()
                result = invoke(argv)
                timings.append((time.perf_counter() - start, shlex.join(argv)))
                assert result.exit_code == 0, f"{page.name}:{line_no}: " + explain(argv, result)
                ran += 1
        elif block.info == "python" and not is_file_block(block):
            code = compile("\n".join(block.lines) + "\n", f"{page.name}:{block.line_no + 1}", "exec")
            exec(code, {"__name__": "__docs__"})
            ran += 1
        elif block.info == "console":
            for line_no, text, expected in console_examples(block):
                argv = shlex.split(text, comments=True)
                assert argv[0] == "barbu-sim", f"{page.name}:{line_no}: console examples run barbu-sim only"
                result = invoke(argv)
                assert result.exit_code == 0, f"{page.name}:{line_no}: " + explain(argv, result)
                actual = result.stdout.rstrip("\n").splitlines()
                assert matches(expected, actual), (
                    f"{page.name}:{line_no}: `{text}` prints something else than the page shows; it prints:\n"
                    + "\n".join(actual))
                ran += 1
    return ran, timings


def test_size_caps():
    """The size caps shrink what is big, keep what is small, and leave resumed runs alone."""
    assert small(["barbu-sim", "run", "--deals", "1000000", "--out", "x"]) == [
        "barbu-sim", "run", "--deals", "1000", "--out", "x"]
    assert small(["barbu-sim", "run", "-c", "trumps"])[-2:] == ["--deals", "1000"]
    assert small(["barbu-sim", "run", "--resume", "--out", "x"]) == ["barbu-sim", "run", "--resume", "--out", "x"]
    assert small(["barbu-sim", "game", "-n", "1", "--show", "0"])[:4] == ["barbu-sim", "game", "-n", "1"]
    assert small(["barbu-sim", "clabber", "run", "--rounds=2000000"])[3] == "--rounds=2000"
    assert "--samples" in small(["barbu-sim", "advise", "AKQ.JT9.876.5432"])


def test_shell_parsing():
    block = Block("bash", ["barbu-sim run -n 5 --out a && barbu-sim report a   # a comment",
                           "barbu-sim play \\", "  --seed 7"], 1)
    assert [argv for _, argv, _ in shell_commands(block)] == [
        ["barbu-sim", "run", "-n", "5", "--out", "a"], ["barbu-sim", "report", "a"],
        ["barbu-sim", "play", "--seed", "7"]]
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"]) and not matches(["a", "d"], ["a", "b", "d"])


def test_cli_reference_is_current():
    """docs/cli.md is what scripts/cli_docs.py generates from the app's help (the script's --check, run as a
    script: it names the commands whose help changed)."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "cli_docs.py"), "--check"], capture_output=True,
                          text=True, timeout=300)
    if done.returncode != 0:
        pytest.fail(done.stderr.strip() or done.stdout.strip())
    assert (ROOT / "docs" / "cli.md").read_text().count("\n## `barbu-sim") >= 17  # every command has its section


LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")


def prose_lines(path: Path) -> list[str]:
    """The lines of a Markdown file outside its fenced code blocks."""
    out, fence = [], None
    for line in path.read_text().splitlines():
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(2)
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is None:
            out.append(line)
    return out


def anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file."""
    out = set()
    for line in prose_lines(path):
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


@pytest.mark.parametrize("path", [p for p in DOC_FILES + [ROOT / "CHANGELOG.md"] if p.exists()],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_links_resolve(path):
    """Every relative link and image of the docs points to a file of the repository (and heading)."""
    text = "\n".join(prose_lines(path))  # links inside code blocks are not links
    broken = []
    for m in LINK.finditer(text):
        target = m.group(1) or m.group(2)
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            broken.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(target)
    assert not broken, f"{path.relative_to(ROOT)}: broken links {broken}"


def test_readme_is_short():
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines: move detail into docs/"
