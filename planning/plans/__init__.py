"""Plans and what hangs on them: their writes (`services`), reads (`selectors`), action filters."""
