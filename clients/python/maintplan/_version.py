"""The SDK's version (semantic versioning; clients/python/CHANGELOG.md): the package metadata
(pyproject.toml reads it) and the User-Agent say it."""

VERSION = "1.1.0"
