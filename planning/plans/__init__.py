"""Plans and what hangs on them: their services and selectors, grants, the actions list's filters."""
