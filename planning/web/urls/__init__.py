"""The URLs of planning's pages: the plans under /plans/, the catalog under its organisation."""
