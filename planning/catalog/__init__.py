"""The code catalog: starter codes, an organisation's own codes, their currency, CSV import."""
