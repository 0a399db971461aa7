"""The declaring guide as a page players read (``docs/guide.md``) and its chart, made from the guide's data.

Every figure on the page comes from ``guide.json`` (the cards) and, where given, a ``compare-orders``
folder (what following the guide gains), so the page stays true when the model or the rules change:
``barbu-sim study guide`` writes it again.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from ...core.files import atomic_path
from ..analytics.hands import FEATURES
from ..game.guide import GUIDE_RULES, reserve_of
from ..rules.config import CONTRACTS, Rules

TITLES = {"no-tricks": "No Tricks", "no-queens": "No Queens", "no-last-two": "No Last Two",
          "no-hearts": "No Hearts", "barbu": "Barbu (No King of Hearts)", "trumps": "Trumps", "domino": "Domino"}
CHART = "guide-cards.png"


def marginal_edges(card: dict) -> dict[int, float]:
    """The card's edge (its mean less the contract's average) per value of its first feature, the second
    feature's cells weighted by how often they are dealt."""
    cells = pl.DataFrame(card["cells"])
    first = card["features"][0]
    rows = cells.group_by(first).agg(((pl.col("mean") * pl.col("n")).sum() / pl.col("n").sum()).alias("m"))
    return {int(v): float(m) - card["average"] for v, m in rows.sort(first).iter_rows()}


def declare_rule(contract: str, card: dict) -> str:
    """The card's short test in words: the values of its first count where the hand beats the average."""
    edges = marginal_edges(card)
    first = card["features"][0]
    lo, hi = card["clip"][first]
    good = [v for v, e in edges.items() if e > 0]
    words = FEATURES[first].meaning
    if not good:
        return f"No count of {words} makes {TITLES[contract]} better than its average: declare it when nothing else is."

    def shown(v: int) -> str:
        return f"{v} or more" if v == hi else (f"{v} or fewer" if v == lo and lo > 0 else str(v))
    best = max(edges, key=edges.get)
    gain = f"{edges[best]:+.1f} points over its average of {card['average']:+.1f}"
    if (lo, hi) == (0, 1):  # a card held or not
        card_name = words.split(" (")[0]
        held = "hold" if good == [1] else "do not hold"
        return f"**Declare {TITLES[contract]} early when you {held} {card_name}** ({gain})."
    if good == list(range(lo, max(good) + 1)):
        test = f"at most {max(good)}" if max(good) < hi else "any number of"
    elif good == list(range(min(good), hi + 1)):
        test = f"at least {min(good)}"
    else:
        test = "exactly " + " or ".join(shown(v) for v in good)
    return f"**Declare {TITLES[contract]} early when you hold {test} {words}** (best at {shown(best)}: {gain})."


def shown_from(card: dict) -> int:
    """The fewest hands a cell needs to be shown: 200 (or one in 200 of a small fit's)."""
    return min(200, max(5, card["n"] // 200))


MAX_COLUMNS = 10  # a count with more values is shown in ranges of values


def _buckets(values: list[int], most: int = MAX_COLUMNS) -> dict[int, tuple[int, int]]:
    """Each value's range of values, for a count with more than ``most`` values."""
    if len(values) <= most:
        return {v: (v, v) for v in values}
    lo, hi = min(values), max(values)
    width = -(-(hi - lo + 1) // most)
    return {v: (lo + (v - lo) // width * width, min(hi, lo + (v - lo) // width * width + width - 1)) for v in values}


def _label(card: dict, f: str, span: tuple[int, int]) -> str:
    lo, hi = card["clip"][f]
    a, b = span
    if f == "domino_start":
        return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(a, str(a))
    if a != b:
        return f"{a}+" if b == hi else f"{a}–{b}"
    return f"{a}+" if a == hi and hi < 13 else (f"≤{a}" if a == lo and lo > 0 else str(a))


def card_markdown(card: dict) -> str:
    """The card as a Markdown table: the declarer's expected score by the first count (rows) and the second
    (columns); end values pool the rarer ones ("4+"), a count of many values is shown in ranges, and a cell
    dealt too rarely to show (:func:`shown_from`) is a dot."""
    features = card["features"]
    cells = pl.DataFrame(card["cells"])
    total = cells["n"].sum()
    if len(features) == 1:
        f = features[0]
        lines = [f"| {f} | expected score | dealt |", "|---|---|---|"]
        for row in cells.sort(f).iter_rows(named=True):
            lines.append(f"| {_label(card, f, (row[f], row[f]))} | {row['mean']:+.1f} | "
                         f"{100 * row['n'] / total:.1f}% |")
        return "\n".join(lines)
    a, b = features
    rows_of = _buckets(sorted(cells[a].unique().to_list()), most=13)
    cols_of = _buckets(sorted(cells[b].unique().to_list()))
    sums: dict = {}
    for r in cells.iter_rows(named=True):
        key = (rows_of[r[a]], cols_of[r[b]])
        n, m = sums.get(key, (0, 0.0))
        sums[key] = (n + r["n"], m + r["mean"] * r["n"])
    cols = sorted(set(cols_of.values()))
    lines = [f"| {a} \\ {b} | " + " | ".join(_label(card, b, c) for c in cols) + " |", "|---|" + "---|" * len(cols)]
    for row_span in sorted(set(rows_of.values())):
        shown = []
        for col_span in cols:
            n, m = sums.get((row_span, col_span), (0, 0.0))
            shown.append("·" if n < shown_from(card) else f"{m / n:+.1f}")
        lines.append(f"| {_label(card, a, row_span)} | " + " | ".join(shown) + " |")
    return "\n".join(lines)


def write_chart(guide: dict, path) -> Path:
    """One panel per contract: the declarer's expected score by the card's first count, a line per value of
    the second (its three most dealt values), with the 95% CI as a band."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator
    fig, axes = plt.subplots(2, 4, figsize=(15, 7.2))
    for ax, (contract, card) in zip(axes.ravel(), guide["cards"].items()):
        cells = pl.DataFrame(card["cells"]).filter(pl.col("n") >= shown_from(card))
        first = card["features"][0]
        if len(card["features"]) == 1:
            groups = [(None, cells)]
        else:
            second = card["features"][1]
            common = cells.group_by(second).agg(pl.col("n").sum()).sort("n", descending=True)[second].head(3)
            groups = [(v, cells.filter(pl.col(second) == v)) for v in sorted(common.to_list())]
        for value, part in groups:
            part = part.sort(first)
            label = None if value is None else f"{card['features'][1]} = {value}"
            ax.plot(part[first], part["mean"], marker="o", ms=3, label=label)
            ax.fill_between(part[first], part["ci_low"], part["ci_high"], alpha=0.2)
        ax.axhline(card["average"], color="grey", lw=0.8, ls="--")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if tuple(card["clip"][first]) == (0, 1):
            ax.set_xticks([0, 1], ["not held", "held"])
        ax.set_title(TITLES[contract], fontsize=11)
        ax.set_xlabel(FEATURES[first].meaning, fontsize=8)
        ax.set_ylabel("declarer's expected score", fontsize=8)
        if groups and groups[0][0] is not None:
            ax.legend(fontsize=7)
    axes.ravel()[-1].axis("off")
    fewest = min(shown_from(card) for card in guide["cards"].values())
    axes.ravel()[-1].text(0, 0.5, f"Dashed: the contract's average.\nBands: 95% CIs.\nCells dealt fewer than "
                          f"{fewest} times\nare left out.", fontsize=10, va="center")
    fig.suptitle("The declarer's expected score by what the hand holds", fontsize=13)
    fig.tight_layout()
    fig.set_layout_engine(None)  # the axes are placed: no second layout pass in savefig (see core.charts.laid_out)
    with atomic_path(path, "the guide's chart") as tmp:
        fig.savefig(tmp, dpi=90)
    plt.close(fig)
    return Path(path)


def gains_markdown(orders: dict) -> list[str]:
    """What following the guide gains, from a compare-orders folder: settled and raw block totals and the
    share of optimal's gain over fixed the guide keeps."""
    blocks = {(r["policy"], r["score"]): r for r in orders["blocks"]}
    policies = list(dict.fromkeys(r["policy"] for r in orders["blocks"]))
    lines = ["| policy | settled points per block | raw points per block |", "|---|---|---|"]
    for p in policies:
        s, r = blocks[(p, "settled")], blocks[(p, "raw")]
        lines.append(f"| `{p}` | {s['mean']:+.1f} ({s['ci_low']:+.1f} to {s['ci_high']:+.1f}) | "
                     f"{r['mean']:+.1f} ({r['ci_low']:+.1f} to {r['ci_high']:+.1f}) |")
    out = lines
    if ("optimal", "settled") in blocks and ("fixed", "settled") in blocks and ("guide", "settled") in blocks:
        base, top = blocks[("fixed", "settled")]["mean"], blocks[("optimal", "settled")]["mean"]
        kept = (blocks[("guide", "settled")]["mean"] - base) / (top - base) if top != base else float("nan")
        out += ["", f"The guide keeps **{100 * kept:.0f}%** of `optimal`'s gain over `fixed` in settled points "
                    f"per block ({blocks[('fixed', 'settled')]['n']:,} blocks, paired on the same deals)."]
        for rule in GUIDE_RULES:
            name = f"guide:no-{rule}"
            if (name, "settled") in blocks:
                k = (blocks[(name, "settled")]["mean"] - base) / (top - base)
                out.append(f"- without the *{rule}* rule: {100 * k:.0f}%")
    return out


def _named(feature: str) -> str:
    """A feature as the page names it: in bold, with what it counts where its name does not say it."""
    meaning = FEATURES[feature].meaning
    if meaning == feature:
        return f"**{feature}**"
    if meaning.startswith(feature + " ("):  # "honours (J, Q, K, A)"
        return f"**{feature}** {meaning[len(feature) + 1:]}"
    return f"**{feature}** ({meaning})"


def guide_page(guide: dict, orders: dict | None, chart: str, command: str) -> str:
    """The text of ``docs/guide.md``."""
    source = guide["source"]
    rules = Rules().with_options(**guide.get("rules", {}))
    players = ", ".join(sorted(set(source["players"])))
    lines = [
        "# The declaring guide: what to declare with the hand in front of you", "",
        "barbu-sim's answers per contract are averages over every hand. At the table the question is different: "
        "*with this hand, what do I declare?* This page answers it with counts you can make at a glance, "
        f"fitted on {source['deals']:,} deals of `{players}` play at every seat (seed {source['seed']}"
        + ("" if rules == Rules() else ", under the rules in the guide file") + "). "
        "The guide is also a contract-choice policy, `guide`, so `compare-orders` and `game` measure it.", "",
        "See also: [findings](findings.md) · [games and doubling](games-and-doubling.md) · "
        "[analysis](analysis.md) · [README](../README.md)", "",
        "## The three rules", "",
        "1. **Keep the two doubled hands for Trumps and Domino.** Each other player must double you twice in "
        "your block of seven; a player who waits is forced to in your last two hands. A doubled hand settles "
        "the difference of the scores with each doubler, so it is worth about five times your score less the "
        "contract's total: the positive contracts gain most.",
        "2. **Before that, declare the negative contract whose card beats its average by the most.** Each "
        "contract below has a card: your expected score by one or two counts of your hand. Read your edge "
        "(your cell less the contract's average) in each contract left and declare the largest.",
        "3. **When the doubles fall, declare the contract whose doubled value is highest**: five times the "
        "card's score less the contract's total (Trumps and Domino share out +65 under the default rules).",
        "", "In Trumps name your longest suit; in Domino the rank whose card (below) scores highest.", "",
        f"![The declarer's expected score by what the hand holds](images/{chart})", "",
    ]
    reserve = {CONTRACTS[c] for c in reserve_of(guide, rules)}
    for contract, card in guide["cards"].items():
        features = " and ".join(_named(f) for f in card["features"])
        explain = "together they explain" if len(card["features"]) > 1 else "it explains"
        rule = declare_rule(contract, card)
        if contract in reserve:
            total = rules.contract_total(CONTRACTS.index(contract))
            rule = (f"**Keep {TITLES[contract]} for a doubled hand** (rule 1): doubled by all three, it is worth "
                    f"five times the card's score less {total:+d}.")
            if contract == "domino" and guide.get("choices", {}).get("domino"):
                rule += (" The card below is for the rank held most; the guide names the rank, and values the hand, "
                         "with the rank card further down.")
        lines += [f"## {TITLES[contract]}", "", rule, "",
                  f"Count {features}: {explain} {100 * card['share']:.0f}% of the spread of the "
                  f"declarer's score ({card['n']:,} hands; average {card['average']:+.2f}). The declarer's "
                  "expected score:", "", card_markdown(card), ""]
    for contract, card in guide.get("choices", {}).items():
        gain = card["gain"]
        what = "suit" if contract == "trumps" else "starting rank"
        verdict = ("so name the " + ("longest suit" if contract == "trumps" else "rank held most")
                   if gain["ci_high"] < 0.5 else "so name the " + what + " this card scores highest")
        lines += [f"## Naming the {what} ({TITLES[contract]})", "",
                  f"The declarer's expected score by the {what}'s counts, "
                  + " and ".join(_named(f) for f in card["features"])
                  + f" ({100 * card['share']:.0f}% of the spread). Naming the {what} this card scores highest "
                  f"gains {gain['mean']:+.2f} points a hand (95% CI {gain['ci_low']:+.2f} to {gain['ci_high']:+.2f}, "
                  f"{gain['n']:,} deals, paired) over naming by `{gain['policy']}`, {verdict}; the best {what} of each "
                  f"deal, known only after play, would gain {gain['hindsight']:+.2f}.", "", card_markdown(card), ""]
    lines += ["## What following it gains", ""]
    if orders:
        lines += [f"Seven-hand blocks, North declaring, the same deals for every policy, `compare-orders` "
                  f"(`{orders['folder']}`); 95% CIs:", "", *gains_markdown(orders), ""]
    else:
        lines += ["Not measured yet: give `--orders` a `compare-orders` folder with `fixed`, `guide` and "
                  "`optimal`.", ""]
    lines += ["## How this page is made", "", "```sh", command, "```", "",
              "The cards are in `results/guide/` (one table per contract, `card_*.csv`, and the shares each count "
              "explains, `shares.csv`); the guide the `guide` policy plays is `barbu_sim/barbu/game/guide.json`.", ""]
    return "\n".join(lines)


