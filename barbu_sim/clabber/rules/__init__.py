"""The rules of Clabber: cards, orders, points, options; the rules of play; melds.

- :mod:`.config`: the 24 cards, orders, points, rule options (``Rules``), the records' columns
  (no numba); re-exported here, so that ``barbu_sim.clabber.rules`` names it;
- :mod:`.play_rules`: legal cards, trick order, points (small ``@njit`` functions);
- :mod:`.melds`: melds by table look-up.

The ground floor: it imports the core only.  This face imports only :mod:`.config` (no numba).
"""

from .config import (  # noqa: F401  (the rules config, by its old name)
    N_CARDS, HAND_SIZE, N_TRICKS, NINE, TEN, JACK, QUEEN, KING, ACE, RANKS, LOW_RANK, DECK_CARDS, DECK, CARD_POINTS,
    LAST_TRICK, ROUND_POINTS, GAME_TARGET, BELL_POINTS, TRUMP_POWER, PLAIN_POWER, TRUMP_POINTS, PLAIN_POINTS, TEAMS,
    MISPLAYS, MELD_FOURS, MELD_RANKINGS, MELD_SHOWS, R_PARTNER_EXCUSE, R_MISPLAY, R_MELD_FOURS, R_MELD_RANKING,
    R_MELD_SHOW, RULES_ARRAY_SIZE, parse_clabber_card, parse_clabber_cards, parse_clabber_hand, format_cards,
    verify_clabber_deal, parse_clabber_deal, Rules, parse_rule_options, describe_rules, rules_from_dict,
    ROUND_COLUMNS, C_DEALER, C_TURNED, C_BID_ROUND, C_MAKER, C_TRUMP, C_MAKER_TRUMPS, C_CARD, C_MELD, C_BELL,
    C_SCORE, C_MISPLAY, C_FLAGS, N_ROUND_COLUMNS, GAME_COLUMNS, G_FIRST_DEALER, G_ROUNDS, G_THROWN_IN, G_SCORE,
    G_RESULT, RESULTS, MAX_GAME_ROUNDS,
)
