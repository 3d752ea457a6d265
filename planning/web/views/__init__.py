"""The plan pages, one module per page family; what several of them share lives beside them."""
