"""Caches keyed on a function's first argument (typically a context or
device), all of which ``clear_first_arg_caches`` empties at once."""

import functools

__all__ = ["first_arg_dependent_memoize", "clear_first_arg_caches"]

_caches = []


def first_arg_dependent_memoize(func):
    """Memoize ``func(first, *rest)`` per ``first``; keyword arguments are not
    allowed (they would make the cache key ambiguous)."""
    cache = {}
    _caches.append(cache)

    @functools.wraps(func)
    def wrapper(first, *rest, **kwargs):
        if kwargs:
            raise TypeError("%s: first_arg_dependent_memoize functions take no keyword arguments" % func.__name__)
        per_first = cache.setdefault(first, {})
        try:
            return per_first[rest]
        except KeyError:
            result = per_first[rest] = func(first, *rest)
            return result

    return wrapper


def clear_first_arg_caches():
    """Empty every first-argument cache, dropping the references they hold."""
    for cache in _caches:
        cache.clear()
