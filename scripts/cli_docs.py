"""Write docs/cli.md, the command reference, from the typer app itself.

Every command of ``barbu-sim`` and ``barbu-sim clabber``: its usage line, its help
text (with the examples of its ``--help``), its arguments and its options with their
help and defaults. The page is generated, so it cannot drift from ``--help``;
``tests/test_docs.py`` fails when docs/cli.md differs from what this script writes.

    python scripts/cli_docs.py            # rewrite docs/cli.md
    python scripts/cli_docs.py --check    # exit 1 if docs/cli.md is out of date
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI_MD = ROOT / "docs" / "cli.md"
PROG = "barbu-sim"
REFRESH = "python scripts/cli_docs.py"

# What a value looks like when an option has no metavar of its own (typer would print <int>, <str>).
TYPE_NAMES = {"int": "INTEGER", "float": "NUMBER", "str": "TEXT", "Path": "PATH", "bool": ""}


def root_command():
    """The click command behind ``barbu_sim.cli.app``."""
    import typer.main

    from barbu_sim.cli import app
    return typer.main.get_command(app)


def subcommands(cmd):
    """A group's commands in the order they were registered (the order of ``--help``)."""
    return list(getattr(cmd, "commands", {}).items())


def is_group(cmd) -> bool:
    return hasattr(cmd, "commands")


def cell(text: str) -> str:
    """Text fit for one Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def value_name(param) -> str:
    """The placeholder of an option's value (its metavar, else the name of its type)."""
    if getattr(param, "is_flag", False):
        return ""
    if param.metavar:
        return param.metavar
    bare = param.bare_type()
    inner = re.fullmatch(r"list\[(\w+)\]", bare)
    return TYPE_NAMES.get(inner.group(1) if inner else bare, bare.upper())


def default_text(param) -> str:
    """The default as a user would type it; empty when there is none (the help then says what applies)."""
    default = param.default
    if getattr(param, "is_flag", False):
        if not param.secondary_opts:
            return ""
        return param.opts[0] if default else param.secondary_opts[0]
    if default is None or default == () or default == []:
        return ""
    if isinstance(default, (list, tuple)):
        return ", ".join(str(d) for d in default)
    return str(default)


def option_names(param) -> str:
    names = [f"`{o}`" for o in param.opts]
    if param.secondary_opts:
        names.append("`" + " / ".join(param.secondary_opts) + "`")
    return ", ".join(names)


def usage(path: list[str], cmd) -> str:
    parts = [" ".join(path), "[OPTIONS]"]  # --help at least
    for p in cmd.params:
        if p.param_type_name == "argument":
            name = (p.metavar or p.name).upper()
            parts.append(name if p.required else f"[{name}]")
    if is_group(cmd):
        parts.append("COMMAND [ARGS]...")
    return " ".join(parts)


def help_markdown(help_text: str) -> list[str]:
    """A command's help text as Markdown: prose as paragraphs, the examples as code blocks.

    An indented paragraph, or one that is an ``Example(s): barbu-sim ...`` line, is
    verbatim command text; consecutive ones share one ``text`` block.
    """
    out: list[str] = []
    code: list[str] = []

    def flush():
        if code:
            out.extend(["```text", *code, "```", ""])
            code.clear()

    paragraphs = re.split(r"\n\s*\n", help_text.replace("\b", "").strip())
    for para in paragraphs:
        lines = [line for line in para.splitlines() if line.strip()]
        if not lines:
            continue
        if all(line.startswith((" ", "\t")) for line in lines):
            code.extend(line.strip() for line in lines)
            continue
        m = re.fullmatch(r"(Examples?):\s+(\S.*)", " ".join(line.strip() for line in lines))
        if m and m.group(2).startswith(PROG):
            flush()
            out.extend([f"{m.group(1)}:", ""])
            code.append(m.group(2))
            continue
        flush()
        out.extend([" ".join(line.strip() for line in lines), ""])
    flush()
    return out


def command_section(path: list[str], cmd) -> list[str]:
    title = " ".join(path)
    out = [f"## `{title}`", "", "```text", usage(path, cmd), "```", ""]
    out += help_markdown(cmd.help or "")
    arguments = [p for p in cmd.params if p.param_type_name == "argument" and not p.hidden]
    options = [p for p in cmd.params if p.param_type_name == "option" and not p.hidden]
    if arguments:
        out += ["| argument | meaning |", "|---|---|"]
        for p in arguments:
            name = (p.metavar or p.name).upper()
            required = "" if p.required else " (optional)"
            out.append(f"| `{name}`{required} | {cell(getattr(p, 'help', '') or '')} |")
        out.append("")
    if options:
        out += ["| option | value | default | meaning |", "|---|---|---|---|"]
        for p in options:
            value = value_name(p)
            default = default_text(p)
            help_text = cell(p.help or "")
            if getattr(p, "multiple", False) and "repeatable" not in help_text.lower():
                help_text += " Repeatable."
            if p.required:
                help_text += " Required."
            out.append(f"| {option_names(p)} | {f'`{value}`' if value else ''} | "
                       f"{f'`{cell(default)}`' if default else ''} | {help_text} |")
        out.append("")
    if is_group(cmd) and len(path) > 1:  # the top level's commands are the table at the head of the page
        out += ["| command | what it does |", "|---|---|"]
        for name, sub in subcommands(cmd):
            anchor = anchor_of(path + [name])
            out.append(f"| [`{' '.join(path + [name])}`](#{anchor}) | {cell(sub.get_short_help_str(limit=200))} |")
        out.append("")
    return out


def anchor_of(path: list[str]) -> str:
    """GitHub's anchor for a ``## `barbu-sim x y` `` heading."""
    return "-".join(path).lower()


def walk(cmd, path):
    """Every command, depth first, in ``--help`` order: (path, command)."""
    yield path, cmd
    for name, sub in subcommands(cmd):
        yield from walk(sub, path + [name])


def generate() -> str:
    root = root_command()
    commands = list(walk(root, [PROG]))
    lines = [
        "# Command reference",
        "",
        f"Every command and option of `{PROG}`, generated from the command line's own help by "
        f"`{REFRESH}`: do not edit this page by hand. `tests/test_docs.py` fails when it differs from "
        "what the script writes; run the script again after changing a command's help. `--help` on any "
        "command prints the same text.",
        "",
        "An option without a default in the table takes its default from the run (the help says which), "
        "or is simply off when not given. A mistake on the command line gives a one-line `Error: ...` "
        "and exit code 2. Guides: [README](../README.md) · [rules](rules.md) · "
        "[strategies](strategies.md) · [games and doubling](games-and-doubling.md) · "
        "[Clabber](clabber.md) · [analysis](analysis.md) · [scale-out](scale-out.md).",
        "",
        "| command | what it does |",
        "|---|---|",
    ]
    for path, cmd in commands[1:]:
        lines.append(f"| [`{' '.join(path)}`](#{anchor_of(path)}) | {cell(cmd.get_short_help_str(limit=200))} |")
    lines.append("")
    for path, cmd in commands:
        lines += command_section(path, cmd)
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n"


def changed_sections(old: str, new: str) -> list[str]:
    """The commands whose section differs between two versions of the page, sorted."""
    def sections(text):
        return {part.split("`", 1)[0]: part for part in text.split("\n## `")[1:]}
    before, after = sections(old), sections(new)
    return sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/cli.md is out of date")
    parser.add_argument("--out", type=Path, default=CLI_MD, help="where to write (default docs/cli.md)")
    args = parser.parse_args(argv)
    text = generate()
    if args.check:
        current = args.out.read_text() if args.out.exists() else ""
        if current != text:
            changed = changed_sections(current, text)
            print(f"{args.out} is out of date (help changed for: {', '.join(changed) or 'the page head'}): "
                  f"run `{REFRESH}`", file=sys.stderr)
            return 1
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(f"wrote {args.out} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
