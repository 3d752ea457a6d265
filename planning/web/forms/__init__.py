"""The forms of the plan pages and the machinery that builds their fields from the models' rules."""
