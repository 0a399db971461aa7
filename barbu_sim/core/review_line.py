"""What both games' punishing lines share: the representative layout, the plays shown, the trick's reason in
words and a line as the review page reads it.

A review values a decision's cards on many layouts of the hidden cards; its loss is the mean of the paired
differences (the best card's value less the played card's).  To show *why* a card loses, a wing's ``line``
module deals one **representative layout** again, the one whose difference is closest to the loss
(:func:`nearest_layout`), and plays the rest of the hand under each card with the players its estimate used.
A line here is a dict: ``plays``, a list of ``(seat, card, won, points)`` from the card itself on (``card``
the wing's pass where a seat passes; ``won`` the seat that wins the trick the play ends, else None; ``points``
what that trick gives its winner), and ``on_table``, the ``(seat, card)`` of the trick before the decision.

Imports nothing of the package: the core is below both wings.
"""

from __future__ import annotations

import numpy as np

SHOWN_TRICKS = 2  # the rest of the trick of the decision and the next one


def nearest_layout(diff, loss: float) -> int:
    """The layout whose difference ``diff[k]`` (the best card's value less the card's, one per layout) is closest
    to ``loss``, their mean; the lowest such layout."""
    return int(np.argmin(np.abs(np.asarray(diff, np.float64) - loss)))


def shown_plays(plays: list, tricks: int = SHOWN_TRICKS) -> list:
    """The first plays of a line: up to the end of its ``tricks``-th trick (the rest of the decision's trick and
    the next one), or all of them where the hand ends before."""
    out, ended = [], 0
    for p in plays:
        out.append(p)
        if p[2] is not None:
            ended += 1
            if ended == tricks:
                break
    return out


def first_trick(line: dict) -> tuple:
    """The trick the line's card is played to: ``(winner, the card it wins with, the points it takes)``; () when
    the line ends no trick."""
    plays = line["plays"]
    end = next((i for i, p in enumerate(plays) if p[2] is not None), None)
    if end is None:
        return ()
    won, points = plays[end][2], plays[end][3]
    cards = list(line["on_table"]) + [(s, c) for s, c, _, _ in plays[:end + 1]]
    return won, next(c for s, c in cards if s == won), points


def trick_sentence(played: str, best: str, ra: tuple, rb: tuple, name, card, points) -> str:
    """The reason in words from the trick under each card (:func:`first_trick` of the two lines):
    ``After ♥K West wins the trick with ♥K (-20); after ♥3 South wins it with ♥6.``  ``played``, ``best``: the
    two cards as shown; ``name(seat)``, ``card(card)``: how a seat and a card are said; ``points(seat, x)``: what
    is said of the points a trick takes (``" (-20)"``, or "")."""
    said = [f"{name(w)} wins the trick with {card(c)}{points(w, x)}" for w, c, x in (ra, rb)]
    if ra[0] == rb[0]:
        said[1] = said[1].replace(f"{name(rb[0])} wins the trick", "wins it", 1)
    else:
        said[1] = said[1].replace("the trick", "it", 1)
    return f"After {played} {said[0]}; after {best} {said[1]}."


def page_line(line: dict, shown: list, title: str, points: str, seat, code) -> dict:
    """A line as the page's script draws it (``lineBox`` of the kit): ``title``, ``plays`` (``shown``, its first
    plays, e.g. :func:`shown_plays`: ``seat``, ``card`` (None for a pass), ``first``, ``won``, ``points``) and
    ``points`` (the words on what each side takes, after how many plays are not shown).  ``seat(s)``,
    ``code(c)``: a seat and a card as the page spells them (``code`` returns None for a pass)."""
    plays = [{"seat": seat(s), "card": code(c), "first": i == 0, "won": seat(w) if w is not None else None,
              "points": x} for i, (s, c, w, x) in enumerate(shown)]
    more = len(line["plays"]) - len(shown)
    return {"title": title, "plays": plays, "points": (f"(and {more} more plays) " if more > 0 else "") + points}


def text_cells(lines: dict, cards, card, n: int = 5) -> str:
    """The text review's short line where no reason is stated: each card's first ``n`` plays,
    ``after 7S: 7S 2S KS 4S 9D; after 2D: ...`` (``card(c)``: a card as said, a pass included)."""
    return "; ".join(f"after {card(c)}: " + " ".join(card(x) for _, x, _, _ in lines[c]["plays"][:n]) for c in cards)


__all__ = ["SHOWN_TRICKS", "first_trick", "nearest_layout", "page_line", "shown_plays", "text_cells",
           "trick_sentence"]
