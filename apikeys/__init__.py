"""API keys and service accounts: their lifecycle, the Bearer authentication, the key pages."""
