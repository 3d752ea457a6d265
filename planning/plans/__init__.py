"""Plans and what hangs on them: services, selectors, grants, the actions list's filters."""
