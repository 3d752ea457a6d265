"""The plan pages, one module per page family; what they share is planning.web.pages."""
