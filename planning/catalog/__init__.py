"""The code catalog: the starter codes, an organisation's own codes and overrides, their currency and CSV import."""
