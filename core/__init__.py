"""The ground floor every app stands on: observability, mail, environment parsing, text and its
natural order, tokens, chunks, and the health and not-found answers. It imports no other app."""
