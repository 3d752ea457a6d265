"""What every part of planning stands on: the one write path, the actor, access rules, money's formatting."""
