"""What the charts show: checked on the drawn artists of small hand-made tables (no engine, no numba)."""

import numpy as np
import polars as pl
import pytest
from matplotlib.colors import to_hex
from matplotlib.patches import Rectangle

from barbu_sim.barbu.analytics.plots import SEAT_COLOURS, plot_comparison, plot_distributions, plot_heatmap
from barbu_sim.barbu.analytics.schema import REL_SEATS
from barbu_sim.clabber.analytics.plots import plot_grouping, plot_scores
from barbu_sim.core.charts import plt


def bar_rects(ax) -> list[Rectangle]:
    """The data bars of an axis, in drawing order."""
    return [r for c in ax.containers for r in getattr(c, "patches", [])]


def distribution_table() -> pl.DataFrame:
    # barbu: -20 or 0 for every seat; the declarer's shares differ from the others'
    rows = []
    for seat, lose in zip(REL_SEATS, (0.10, 0.30, 0.30, 0.30)):
        rows += [("barbu", seat, -20, lose), ("barbu", seat, 0, 1 - lose)]
    for seat in REL_SEATS:  # domino: four uneven values
        rows += [("domino", seat, v, 0.25) for v in (-5, 5, 20, 45)]
    return pl.DataFrame(rows, schema=["contract", "rel_seat", "score", "share"], orient="row")


def test_distributions_are_bars_for_every_seat_and_value():
    fig = plot_distributions(distribution_table())
    barbu, domino = fig.axes[0], fig.axes[1]
    assert barbu.get_title() == "barbu" and domino.get_title() == "domino"
    assert not barbu.lines and not domino.lines  # no joined points between discrete values
    for ax, values in ((barbu, (-20, 0)), (domino, (-5, 5, 20, 45))):
        rects = bar_rects(ax)
        assert len(rects) == 4 * len(values)  # one bar per seat and value
        assert len({to_hex(r.get_facecolor()) for r in rects}) == 4
        for value in values:  # the four seats' bars of a value sit side by side, none hidden behind another
            group = sorted((r for r in rects if abs(r.get_x() + r.get_width() / 2 - value) < 0.5 * (
                10 if ax is domino else 20)), key=lambda r: r.get_x())
            assert len(group) == 4
            assert all(a.get_x() + a.get_width() <= b.get_x() + 1e-9 for a, b in zip(group, group[1:]))
            assert [to_hex(r.get_facecolor()) for r in group] == [SEAT_COLOURS[s].lower() for s in REL_SEATS]
    # heights are the shares in percent: the declarer loses barbu in 10% of hands, the others in 30%
    heights = sorted(r.get_height() for r in bar_rects(barbu) if r.get_x() < -10)
    assert heights == pytest.approx([10, 30, 30, 30])
    plt.close(fig)


def test_distribution_legend_names_every_seat():
    fig = plot_distributions(distribution_table())
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)
    assert [t.get_text() for t in legends[0].get_texts()] == list(REL_SEATS)
    plt.close(fig)


def heatmap_table() -> pl.DataFrame:
    return pl.DataFrame({"contract": ["no-hearts", "barbu", "trumps"],
                         "declarer": [-8.0, -5.1, 18.3], "left": [-8.0, -5.3, 15.4],
                         "across": [-7.0, -5.1, 15.4], "right": [-7.0, -4.5, 16.0]})


def test_heatmap_colours_each_contract_on_its_own_scale():
    fig = plot_heatmap(heatmap_table())
    ax = fig.axes[0]
    colour = np.asarray(ax.images[0].get_array())
    values = heatmap_table().select(REL_SEATS).to_numpy()
    for row, vals in zip(colour, values):
        # centred on the contract's mean, scaled by its furthest seat: every row uses the whole scale
        dev = vals - vals.mean()
        assert row == pytest.approx(dev / np.abs(dev).max())
        assert max(abs(row.min()), abs(row.max())) == pytest.approx(1.0)
    # no-hearts (-8, -8, -7, -7) is not one pale colour: its seats sit at both ends of the scale
    assert list(colour[0]) == pytest.approx([-1, -1, 1, 1])
    # the cells carry the scores themselves, so the values stay readable
    texts = {t.get_text() for t in ax.texts}
    assert {"-8.00", "-7.00", "+18.30", "-4.50"} <= texts
    plt.close(fig)


def test_heatmap_row_of_equal_seats_is_neutral():
    table = pl.DataFrame({"contract": ["domino"], "declarer": [16.0], "left": [16.0], "across": [16.0],
                          "right": [16.0]})
    fig = plot_heatmap(table)
    assert np.asarray(fig.axes[0].images[0].get_array()) == pytest.approx(np.zeros((1, 4)))
    plt.close(fig)


def blocks_table(doublings=("compulsory-only",), policies=("raw-optimal", "fixed", "myopic", "relative", "optimal")):
    rows = [{"doubling": d, "policy": p, "score": "settled", "n": 2000, "mean": 10.0 * (i + 1),
             "ci_low": 10.0 * (i + 1) - 2, "ci_high": 10.0 * (i + 1) + 2}
            for d in doublings for i, p in enumerate(policies)]
    return pl.DataFrame(rows)


def test_orders_chart_gives_each_policy_its_own_colour_and_names_doubling_and_blocks():
    fig = plot_comparison(blocks_table(), "settled")
    ax = fig.axes[0]
    colours = [to_hex(r.get_facecolor()) for r in bar_rects(ax)]
    assert len(colours) == 5 and len(set(colours)) == 5  # fixed and optimal no longer share a blue
    title = fig._suptitle.get_text()
    assert "compulsory-only" in title and "2,000 blocks" in title
    assert [t.get_text() for t in ax.get_xticklabels()] == ["raw-optimal", "fixed", "myopic", "relative", "optimal"]
    plt.close(fig)


def test_orders_chart_groups_by_doubling_policy_with_one_colour_per_contract_policy():
    wins = pl.DataFrame([{"doubling": d, "policy": p, "seat_games": 200, "mean": m, "ci_low": m - 0.05,
                          "ci_high": m + 0.05}
                         for d in ("threshold:5", "bayes:5") for p, m in (("raw-optimal", 0.225), ("optimal", 0.275))])
    fig = plot_comparison(blocks_table(("threshold:5", "bayes:5"), ("raw-optimal", "optimal")), "settled", wins)
    blocks_ax, wins_ax = fig.axes[:2]
    for ax in (blocks_ax, wins_ax):
        rects = bar_rects(ax)
        assert len(rects) == 4
        by_colour = {}
        for r in rects:
            by_colour.setdefault(to_hex(r.get_facecolor()), []).append(r)
        assert len(by_colour) == 2  # one colour per contract-order policy, the same under each doubling
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["raw-optimal", "optimal"]
    title = fig._suptitle.get_text()
    assert "threshold:5" in title and "bayes:5" in title and "2,000 blocks" in title
    assert [r.get_height() for r in bar_rects(wins_ax)] == pytest.approx([22.5, 22.5, 27.5, 27.5])
    assert wins_ax.get_ylim() == (0, 100)
    plt.close(fig)


def test_orders_chart_keeps_distinct_colours_beyond_the_palette():
    policies = [f"p{i}" for i in range(11)]
    fig = plot_comparison(blocks_table(policies=policies), "raw")
    assert len({to_hex(r.get_facecolor()) for r in bar_rects(fig.axes[0])}) == 11
    plt.close(fig)


def clabber_scores_table() -> pl.DataFrame:
    rows = [{"team": t, "metric": m, "n": 10, "mean": v, "ci_low": v - 1, "ci_high": v + 1}
            for t, base in (("makers", 100.0), ("defenders", 50.0))
            for m, v in (("card_points", base), ("meld_points", 8.0), ("bell_points", 2.0), ("round_score", base))]
    return pl.DataFrame(rows)


def test_clabber_charts_label_axes_in_words_not_column_names():
    fig = plot_scores(clabber_scores_table())
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert len(labels) == 4 and not any("_" in label for label in labels)
    assert labels[0].startswith("card points") and labels[2].startswith("bell")
    assert ax.get_xlabel() and "_" not in ax.get_xlabel() + ax.get_ylabel()
    plt.close(fig)
    rows = [{"maker_trumps": k, "metric": m, "n": 10, "mean": v, "ci_low": v * 0.9, "ci_high": v * 1.1}
            for k in ("3", "4") for m, v in (("made", 0.8), ("makers_score", 110.0), ("defenders_score", 60.0))]
    fig = plot_grouping(pl.DataFrame(rows), "maker_trumps")
    for ax in fig.axes:
        assert ax.get_xlabel() == "trumps dealt to the maker" and "_" not in ax.get_ylabel()
    legend = fig.axes[1].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["makers", "defenders"]
    # the legend sits above the bars, not on them
    top = max(r.get_height() + 11 for r in bar_rects(fig.axes[1]))
    assert fig.axes[1].get_ylim()[1] >= top
    plt.close(fig)


def test_clabber_grouping_with_one_value_keeps_ordinary_bars():
    rows = [{"maker_rel": "left", "metric": m, "n": 10, "mean": v, "ci_low": v * 0.9, "ci_high": v * 1.1}
            for m, v in (("made", 0.4), ("makers_score", 48.0), ("defenders_score", 100.0))]
    fig = plot_grouping(pl.DataFrame(rows), "maker_rel")
    for ax in fig.axes:
        lo, hi = ax.get_xlim()
        assert sum(r.get_width() for r in bar_rects(ax)) <= 0.35 * (hi - lo)  # not one bar across the whole axis
    plt.close(fig)
