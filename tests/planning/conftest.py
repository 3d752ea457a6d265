from __future__ import annotations

from typing import Any

import pytest

from planning.services import code_catalog_defaults_load


@pytest.fixture
def starter_catalog(db: Any) -> None:
    """The starter catalog of migration 0003. A transactional test (browser, concurrency) empties
    every table after it ran, migration data included, so tests that need the catalog ask for it.
    """
    code_catalog_defaults_load()
