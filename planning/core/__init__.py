"""What planning stands on: the one write path, the actor, access, validation, money."""
