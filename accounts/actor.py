"""Who acts in the current context: a person, a service account, an import, or nobody (the
system). Set per request by `accounts.middleware.ActorMiddleware` and by the jobs that act on
someone's behalf; read by what records who changed something (planning.core.actor hands it to the
database for the plans' change history, docs/subsystems/history.md "History")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

USER = "user"
SERVICE = "service"
IMPORT = "import"
SYSTEM = "system"


@dataclass(frozen=True)
class Actor:
    kind: str  # USER, SERVICE, IMPORT or SYSTEM
    id: str = ""
    label: str = ""
    quiet: bool = False  # acts without leaving history entries (an import's rows)

    @classmethod
    def user(cls, user: Any) -> Actor:
        return cls(kind=USER, id=str(user.pk), label=user.email)

    @classmethod
    def service(cls, key: Any) -> Actor:
        """The service account a key belongs to (apikeys.models.ServiceAccount): its id and
        name, the same through its keys' rolls, so the history names it, never the key."""
        account = key.service_account
        return cls(kind=SERVICE, id=str(account.pk), label=f"service account “{account.name}”")

    @classmethod
    def of_principal(cls, principal: Any) -> Actor | None:
        """The actor of a request's `user`: a person, a service account (a principal carrying
        its API key), or None for an anonymous one."""
        if principal is None or not principal.is_authenticated:
            return None
        key = getattr(principal, "api_key", None)
        return cls.service(key) if key is not None else cls.user(principal)


# An Actor, or a function that says (a request's person is looked up only when needed).
_actor: ContextVar[Actor | Callable[[], Actor | None] | None] = ContextVar("actor", default=None)


def current_actor() -> Actor | None:
    actor = _actor.get()
    return actor() if callable(actor) else actor


@contextmanager
def acting(actor: Actor | Callable[[], Actor | None] | None) -> Iterator[None]:
    """Who acts in this block (None: the system)."""
    token = _actor.set(actor)
    try:
        yield
    finally:
        _actor.reset(token)
