"""Exports: a plan's actions, budget and whole plan, and a comparison, as rows for CSV and XLSX."""
