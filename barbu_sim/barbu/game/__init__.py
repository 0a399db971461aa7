"""Full 28-hand games of Barbu: doubling and settlement, hand evaluation, policies, order comparison."""
