"""Played deals more than one test file replays."""

# The example of docs/review-and-table.md: West, last to play to a trick South is winning with 6H,
# plays K♥ and wins it; a low heart would let South win, and West, void in spades, would discard K♥
# on the spades South must lead next.
EXAMPLE_DEAL = "N:2.5.AKQJT987654. .2..AKQJT9876543 AKQJT9876543.6.. .AKQJT98743.32.2"
EXAMPLE = f"""contract: barbu
declarer: N
deal: {EXAMPLE_DEAL}
play:
5H 2H 6H KH
"""
