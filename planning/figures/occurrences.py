"""The one occurrence expansion (docs/subsystems/money.md): which actions count, in which years,
and the grid every figure sums them into.

- A live action is a planned one (done and cancelled actions count nowhere in planned cost).
- A recurring action (`interval_years` n) occurs in planned_year, + n, + 2n, ...; a one-off in
  its planned year: `occurrence_years`.
- `YearGrid` holds whole cents and occurrence counts per key (a building, a kind, a plan, a
  node) and year of a range; grouped rows (today's prices add up, so one row may stand for many
  actions of one planned year and interval) and single actions (a nominal figure is rounded per
  occurrence) are added through it, and nothing else adds an occurrence to a figure.
- `year_cents` is the grouped query every today's-prices figure reads: the live actions of a
  range summed per key, planned year and interval (rows: keys x years x intervals, never one
  per action), spread over their occurrences.

The living plan's actions and a version's snapshot (VersionAction) are read the same way, so a
version's totals come from this code too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal
from typing import Any, TypeVar

from django.db.models import BigIntegerField, CharField, Count, F, Model, Q, QuerySet, Sum
from django.db.models.functions import Cast, Round

from planning.core.money import amount_of, cents_of
from planning.figures.prices import PriceIndex
from planning.models import CENT, Action, ActionStatus, Plan, PlanVersion, VersionAction

M = TypeVar("M", bound=Model)


def occurrence_years(
    *, planned_year: int, interval_years: int | None, first: int, last: int
) -> range:
    """The years from `first` to `last` (inclusive) in which an action planned for
    `planned_year` occurs: that year alone, or every `interval_years` from it on."""
    if interval_years is None:
        return range(planned_year, planned_year + 1) if first <= planned_year <= last else range(0)
    start = planned_year
    if start < first:
        start += -(-(first - start) // interval_years) * interval_years
    return range(start, last + 1, interval_years)


def live_in_range(actions: QuerySet[M], *, year_from: int, year_to: int) -> QuerySet[M]:
    """The planned actions of `actions` with an occurrence that may fall from `year_from` to
    `year_to`: a one-off planned in the range, a recurring one planned before its end."""
    return (
        actions.filter(status=ActionStatus.PLANNED)
        .filter(
            Q(planned_year__gte=year_from, planned_year__lte=year_to)
            | Q(interval_years__isnull=False, planned_year__lt=year_from)
        )
        .order_by()
    )


def live_actions(*, plan: Plan, year_from: int, year_to: int) -> QuerySet[Action]:
    """The living plan's actions that count in the range (`live_in_range`)."""
    return live_in_range(Action.objects.filter(plan=plan), year_from=year_from, year_to=year_to)


def version_live_actions(
    *, version: PlanVersion, year_from: int, year_to: int
) -> QuerySet[VersionAction]:
    """A version's snapshot of actions that count in the range (`live_in_range`)."""
    return live_in_range(
        VersionAction.objects.filter(version=version), year_from=year_from, year_to=year_to
    )


def cents_column(name: str = "estimated_cost") -> Cast:
    """A money column as whole cents, computed by the database."""
    return Cast(Round(F(name) * 100), output_field=BigIntegerField())


def sum_cents(value: Any) -> int:
    """A database's sum of a money column as whole cents (SQLite sums come back as floats or
    ints: rounded to the cent as the column stores it)."""
    return cents_of(Decimal(str(value or 0)).quantize(CENT))


class YearGrid:
    """Cents and occurrence counts per key and year of a range."""

    def __init__(self, years: list[int]) -> None:
        self.years = years
        self.first, self.last = years[0], years[-1]
        self.width = len(years)
        self.cents: dict[Any, list[int]] = defaultdict(lambda: [0] * self.width)
        self.counts: dict[Any, list[int]] = defaultdict(lambda: [0] * self.width)

    def add_grouped(
        self, key: Any, year: int, interval: int | None, cents: int, count: int
    ) -> None:
        """`count` actions of one planned year and interval costing `cents` together (today's
        prices add up): their cents in every year they occur in."""
        cells, counts = self.cents[key], self.counts[key]
        for occurrence in occurrence_years(
            planned_year=year, interval_years=interval, first=self.first, last=self.last
        ):
            cells[occurrence - self.first] += cents
            counts[occurrence - self.first] += count

    def add_nominal(
        self,
        rows: Iterable[tuple[Any, Any, int, int | None, int]],
        index: PriceIndex,
        kinds: YearGrid,
        today: YearGrid,
        today_kinds: YearGrid,
    ) -> None:
        """One action per row (key, kind, planned year, interval, cost in cents): each
        occurrence's nominal cents, rounded on its own (PriceIndex.cents_factor, inlined: this
        loop runs once per occurrence), into this grid and `kinds`, and its cents in today's
        prices into `today` and `today_kinds` on the way."""
        first, last = self.first, self.last
        factors = [index.cents_factor(year) for year in range(first, last + 1)]
        grid_cents, grid_counts, kind_cents = self.cents, self.counts, kinds.cents
        today_cents, today_counts, today_kind_cents = today.cents, today.counts, today_kinds.cents
        for key, kind, year, interval, cents in rows:
            cells, counts, kind_cells = grid_cents[key], grid_counts[key], kind_cents[kind]
            plain, plain_counts, plain_kind = (
                today_cents[key],
                today_counts[key],
                today_kind_cents[kind],
            )
            if interval is None:  # a one-off: the query read only those of the range
                offsets: Iterable[int] = (year - first,)
            else:
                years = occurrence_years(
                    planned_year=year, interval_years=interval, first=first, last=last
                )
                offsets = range(years.start - first, years.stop - first, years.step)
            for offset in offsets:
                twice_p, q, twice_q = factors[offset]
                value = (cents * twice_p + q) // twice_q
                cells[offset] += value
                counts[offset] += 1
                kind_cells[offset] += value
                plain[offset] += cents
                plain_counts[offset] += 1
                plain_kind[offset] += cents

    def amounts(self, key: Any) -> list[Decimal]:
        return [amount_of(cents) for cents in self.cents[key]]

    def total(self, key: Any) -> Decimal:
        """The key's figure over the whole range."""
        return amount_of(sum(self.cents[key])) if key in self.cents else amount_of(0)


def year_cents(actions: QuerySet[Any], *, key: str | None, years: list[int]) -> YearGrid:
    """Today's prices of every occurrence in `years` of `actions` (live actions of that range:
    `live_in_range`) per `key` (a column of theirs, or None for one figure): one grouped query."""
    grid = YearGrid(years)
    columns = [key] if key else []
    for *group, year, interval, total, count in (
        actions.values_list(*columns, "planned_year", "interval_years")
        .annotate(total=Sum("estimated_cost"), count=Count("pk"))
        .order_by()
    ):
        grid.add_grouped(group[0] if key else None, year, interval, sum_cents(total), count)
    return grid


def nominal_rows(actions: QuerySet[Any], key: str) -> QuerySet[Any]:
    """(key, kind, planned year, interval, cost in whole cents) of each action, the key as
    text: the nominal pass reads 100,000 of these, and integers and text are what a database
    driver hands over fastest (a Decimal and a UUID per row cost more than the pass itself)."""
    return actions.values_list(
        Cast(key, output_field=CharField()),
        "kind",
        "planned_year",
        "interval_years",
        cents_column(),
    )
