"""Writes of plans and what hangs on them: one module per entity family."""
