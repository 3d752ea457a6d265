"""`{% load planning_format %}`: the template filters that format planning's figures."""
