from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from planning.models import Plan, PlanNumberCounter
from planning.plans.selectors import plan_access_get
from planning.plans.services.plans import plan_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_plan_numbers_are_sequential(user: Any) -> None:
    numbers = [plan_create(owner=user, name=f"Plan {i}").number for i in range(3)]

    assert numbers[1] == numbers[0] + 1
    assert numbers[2] == numbers[1] + 1


def test_number_of_a_deleted_plan_is_not_reused(user: Any) -> None:
    first = plan_create(owner=user, name="First")
    second = plan_create(owner=user, name="Second")
    second_number = second.number
    second.delete()

    third = plan_create(owner=user, name="Third")

    assert third.number == second_number + 1
    assert set(Plan.objects.values_list("number", flat=True)) == {first.number, third.number}


def test_a_lost_counter_row_resumes_above_the_highest_number(user: Any) -> None:
    existing = plan_create(owner=user, name="Before")
    PlanNumberCounter.objects.all().delete()

    after = plan_create(owner=user, name="After")

    assert after.number == existing.number + 1


def test_a_new_plan_goes_into_its_creators_personal_organisation(user: Any) -> None:
    plan = plan_create(owner=user, name="Mine")

    assert plan.organisation == user.personal_organisation
    assert plan_access_get(user=user, number=plan.number).role == "owner"
    assert not plan.memberships.exists()  # no grant: the organisation role gives the rights


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("counter_row", ["present", "missing"])
def test_concurrent_creation_gives_no_duplicate_numbers(
    requires_postgres: None, counter_row: str
) -> None:
    if counter_row == "missing":  # as after a flush: the creators race to put it back
        PlanNumberCounter.objects.all().delete()
    else:
        PlanNumberCounter.objects.update_or_create(pk=1, defaults={"last_number": 0})
    threads_count, plans_per_thread = 8, 5
    owner = UserFactory.create()
    barrier = threading.Barrier(threads_count)
    numbers: list[int] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def create_plans() -> None:
        try:
            barrier.wait()
            for i in range(plans_per_thread):
                plan = plan_create(owner=owner, name=f"Concurrent {i}")
                with lock:
                    numbers.append(plan.number)
        except BaseException as error:  # reported below, a thread cannot fail the test itself
            errors.append(error)
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=create_plans) for _ in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    total = threads_count * plans_per_thread
    assert len(numbers) == total
    assert len(set(numbers)) == total
    assert sorted(numbers) == list(range(min(numbers), min(numbers) + total))
    assert Plan.objects.count() == total
