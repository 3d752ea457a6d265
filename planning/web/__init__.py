"""Every view, form, page and URL of planning."""
