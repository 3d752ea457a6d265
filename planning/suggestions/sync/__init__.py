"""The suggestion sync: its steps, one module each (`run` holds the contract and runs them)."""
