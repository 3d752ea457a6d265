"""The suggestions: the rules, the sync that keeps them current, their reads and writes."""
