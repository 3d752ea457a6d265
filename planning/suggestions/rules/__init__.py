"""The suggestion rules: pure functions over frozen records, one module per rule."""
