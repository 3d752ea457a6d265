"""Writes on suggestions: apply, its undo, dismiss and restore."""
