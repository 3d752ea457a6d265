"""A plan's past: its change history and its adopted versions with their comparison."""
