"""The SQL the database runs on every write of plan data: change-log and history triggers."""
