"""The Barbu rules as text: the contracts and options in force (``barbu-sim rules``) and the presets.

Kept apart from :mod:`barbu_sim.barbu.rules` (the options themselves) so that each module has one job.
"""

from __future__ import annotations

from ...core.cards import RANK_NAMES
from .config import CONTRACT_TITLES, CONTRACTS, PRESET_NOTES, PRESETS, Rules


def _points(value: int) -> str:
    return f"{value:+d}"


def contract_lines(rules: Rules) -> list[str]:
    """What each contract scores under ``rules`` and its total per hand, one line each."""
    hf = rules.high_hearts_from
    if hf == 12:
        hearts = f"{_points(rules.no_hearts_per_heart)} per heart, A♥ {_points(rules.no_hearts_ace)}"
    elif hf == 0:
        hearts = f"{_points(rules.no_hearts_high_heart)} per heart, A♥ {_points(rules.no_hearts_ace)}"
    elif rules.no_hearts_high_heart == rules.no_hearts_per_heart:
        hearts = f"{_points(rules.no_hearts_per_heart)} per heart, A♥ {_points(rules.no_hearts_ace)}"
    else:
        hearts = (f"{_points(rules.no_hearts_per_heart)} per 2-{RANK_NAMES[hf - 1]}♥, "
                  f"{_points(rules.no_hearts_high_heart)} per {RANK_NAMES[hf]}-K♥, A♥ {_points(rules.no_hearts_ace)}")
    scores = (
        f"{_points(rules.no_tricks_per_trick)} per trick won",
        f"{_points(rules.no_queens_per_queen)} per queen won",
        f"{_points(rules.no_last_two_trick_12)} for trick 12, {_points(rules.no_last_two_trick_13)} for trick 13",
        hearts,
        f"{_points(rules.barbu_king)} for winning K♥",
        f"{_points(rules.trumps_per_trick)} per trick won",
        "by finishing order: " + ", ".join(_points(p) for p in rules.domino_payout),
    )
    return [f"  {name:<12} {title:<26} {score:<40} total {rules.contract_total(c):+d}"
            for c, (name, title, score) in enumerate(zip(CONTRACTS, CONTRACT_TITLES, scores))]


def balance_line(rules: Rules) -> str:
    """Whether a block of seven hands (each contract once) is zero-sum: information, not a refusal."""
    total = rules.block_total()
    if total == 0:
        return "  The seven totals add up to 0: a block of seven hands is zero-sum."
    return (f"  The seven totals add up to {total:+d}: not zero-sum (every block of seven hands shares out "
            f"{total:+d} points).")


def play_lines(rules: Rules) -> list[str]:
    """The rules of play the options set, in words."""
    no_hearts = ("no heart lead unless you hold only hearts" if rules.no_hearts_lead == "unless-only-hearts"
                 else "any card may be led")
    barbu = {"king-only": "K♥ may not be led unless it is your only card",
             "no-hearts-unless-only-hearts": "no heart lead unless you hold only hearts",
             "any": "any card may be led"}[rules.barbu_heart_lead]
    order = "A (low), 2 .. K" if rules.domino_ace == "low" else "2 .. A (high)"
    start = rules.fixed_domino_start
    named = ("the declarer names the starting rank" if start is None
             else f"every hand starts from the {RANK_NAMES[start]}")
    best = ("The lowest total wins: lower is better." if rules.lower_is_better
            else "The highest total wins.")
    return [
        "Play: follow the led suit if you can; the highest card of the led suit wins (Trumps: the highest trump).",
        f"No Hearts: {no_hearts}. Barbu: {barbu}. Early ends after the last penalty card.",
        f"Domino: columns run {order}; {named}.",
        best,
    ]


def option_lines(rules: Rules) -> list[str]:
    """The options in force, ``name value`` one a line, then the preset they match."""
    lines = []
    for key, value in rules.to_dict().items():
        shown = (",".join(str(v) for v in value) if isinstance(value, list)
                 else ("on" if value is True else "off" if value is False else value))
        lines.append(f"  {key:<22} {shown}")
    preset = next((name for name, r in PRESETS.items() if r == rules), None)
    lines.append(f"  (preset: {preset or 'custom'}; the presets: barbu-sim rules --presets)")
    return lines


def describe_rules(rules: Rules) -> str:
    """A readable summary of the contracts, their totals and the options in force."""
    return "\n".join(["Contracts (seven, each declared once per block):", *contract_lines(rules), balance_line(rules),
                      "", *play_lines(rules), "", "Options in force:", *option_lines(rules)])


def preset_changes(rules: Rules) -> str:
    """The options of ``rules`` that differ from the defaults, as ``-o`` would write them."""
    default = Rules().to_dict()
    changed = []
    for key, value in rules.to_dict().items():
        if value != default[key]:
            shown = ",".join(str(v) for v in value) if isinstance(value, list) else (
                "on" if value is True else "off" if value is False else value)
            changed.append(f"{key}={shown}")
    return " ".join(changed) or "(the defaults)"


def describe_presets() -> str:
    """Every preset: its name, what it is, and the options it sets."""
    lines = ["Presets (--rules NAME; a rules file may start from one: preset = \"NAME\"):"]
    for name, rules in PRESETS.items():
        lines.append(f"  {name:<26} {PRESET_NOTES[name]}")
        lines.append(f"  {'':<26}   {preset_changes(rules)}")
    return "\n".join(lines)

