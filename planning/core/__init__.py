"""What all of planning stands on: the one write path, the actor, access rules, money."""
