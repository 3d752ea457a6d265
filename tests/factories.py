from __future__ import annotations

from typing import Any

import factory
from factory.django import DjangoModelFactory

from accounts.models import User


class UserFactory(DjangoModelFactory[User]):
    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"person{n}@example.com")
    name = factory.Faker("name")
    is_active = True

    @factory.post_generation
    def password(self, create: bool, extracted: str | None, **kwargs: Any) -> None:
        self.set_password(extracted or "correct-horse-battery-42")
        if create:
            self.save(update_fields=["password"])
