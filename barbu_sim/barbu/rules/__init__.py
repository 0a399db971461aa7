"""The rules of Barbu: the rules config and presets, option values, the rules of play, the declarer's choices.

- :mod:`.config`: the contracts, the rule options (``Rules``), the presets and the kernels' rules
  array (``R_*``); re-exported here, so that ``barbu_sim.barbu.rules`` names it;
- :mod:`.option_values`: reading one option value;  :mod:`.text`: the rules and presets as text;
- :mod:`.play_rules`: legal cards, trick winners, trick values, Domino (small ``@njit`` functions);
- :mod:`.choices`: a declarer's choice of trump suit or domino rank (a fixed one or a policy), as
  text and as the kernels' int code;  :mod:`.choice_from_hand`: the suit or rank a choice policy
  picks from a hand (``@njit``).

The ground floor: it imports the core only.  This face imports only :mod:`.config` (no numba).
"""

from .config import (  # noqa: F401  (the rules config, by its old name)
    Contract, NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, BARBU, TRUMPS, DOMINO, N_CONTRACTS, CONTRACTS,
    CONTRACT_TITLES, NEGATIVE_CONTRACTS, POSITIVE_CONTRACTS, CONTRACT_TOTALS, QUEENS, HEARTS_MASK, KING_OF_HEARTS,
    ACE_OF_HEARTS, KING_OF_HEARTS_BIT, ACE_OF_HEARTS_BIT, ROTATIONS, BARBU_HEART_LEADS, NO_HEARTS_LEADS,
    TRUMPS_VOIDS, DOMINO_ACES, BEST_TOTALS, R_BARBU_HEART_LEAD, R_BARBU_FORCED_DISCARD, R_TRUMPS_VOID,
    R_TRUMPS_OVERTRUMP, R_DOMINO_PAYOUT, R_NO_HEARTS_LEAD, R_DOMINO_ACE, R_DOMINO_START, R_NO_TRICKS_TRICK,
    R_NO_QUEENS_QUEEN, R_NO_LAST_TWO_12, R_NO_LAST_TWO_13, R_NO_HEARTS_HEART, R_NO_HEARTS_HIGH,
    R_NO_HEARTS_HIGH_FROM, R_NO_HEARTS_ACE, R_BARBU_KING, R_TRUMPS_TRICK, R_BEST_TOTAL, RULES_ARRAY_SIZE,
    parse_contract, POINT_FIELDS, Rules, OPTION_NAMES, PRESETS, PRESET_NOTES, load_rules, TOML_TYPES,
    check_toml_types, parse_option_pairs,
)
