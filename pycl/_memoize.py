"""Caches keyed on a function's first argument (typically a context or
device), all of which ``clear_first_arg_caches`` empties at once."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable
    from typing import TypeVar

    from typing_extensions import Concatenate, ParamSpec

    _H = TypeVar("_H", bound=Hashable)
    _P = ParamSpec("_P")
    _R = TypeVar("_R")

__all__ = ["first_arg_dependent_memoize", "clear_first_arg_caches"]

# One per memoized function: first argument -> (other arguments -> result).
_caches: list[dict[Any, dict[tuple[Any, ...], Any]]] = []


def first_arg_dependent_memoize(func: Callable[Concatenate[_H, _P], _R]) -> Callable[Concatenate[_H, _P], _R]:
    """Memoize ``func(first, *rest)`` per ``first``; keyword arguments are not
    allowed (they would make the cache key ambiguous)."""
    cache: dict[Any, dict[tuple[Any, ...], Any]] = {}
    _caches.append(cache)

    @functools.wraps(func)
    def wrapper(first: _H, *rest: Any, **kwargs: Any) -> _R:
        if kwargs:
            raise TypeError("%s: first_arg_dependent_memoize functions take no keyword arguments" % func.__name__)
        per_first = cache.setdefault(first, {})
        try:
            return per_first[rest]
        except KeyError:
            # No keyword arguments get here (refused above), which _P cannot say.
            result = per_first[rest] = func(first, *rest)  # type: ignore[call-arg]
            return result

    return wrapper


def clear_first_arg_caches() -> None:
    """Empty every first-argument cache, dropping the references they hold."""
    for cache in _caches:
        cache.clear()
