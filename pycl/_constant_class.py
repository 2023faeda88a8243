"""The machinery of ``pycl.constants``: the base of PyOpenCL's constant
classes (with ``to_string``) and the function that makes each class from the
compiled module's values."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, ClassVar, Optional, SupportsIndex, cast

from pycl._lib import lib

__all__ = ["ConstantType", "ConstantClass", "constant_class"]


class ConstantType(type):
    """Metaclass of the constant classes."""

    if TYPE_CHECKING:
        # The attributes are made at import; type checkers see each as an int.
        def __getattr__(cls, name: str) -> int: ...


class ConstantClass(metaclass=ConstantType):
    """Base of the constant classes: holds ``to_string``."""

    _is_bitfield: ClassVar[bool] = False
    _values: ClassVar[dict[str, int]] = {}  # attribute name -> value
    # The tables of to_string, made on its first call (_index), not at import:
    # value -> name, and (bit, name) for the values that are one bit, ascending.
    _name_of: ClassVar[Optional[dict[int, str]]] = None
    _bits: ClassVar[tuple[tuple[int, str], ...]] = ()

    def __init__(self) -> None:
        raise TypeError(f"{type(self).__name__} is a namespace of constants")

    @classmethod
    def to_string(
        cls,
        value: SupportsIndex,
        default_format: Optional[str] = None,  # noqa: UP045 (no X | Y: Python 3.9)
    ) -> str:
        """The attribute name of *value*.

        For an unknown value, returns ``default_format % value`` if
        *default_format* is given, else raises ``ValueError``. For a bit-field
        class, a combination of bits gives the names joined with ``" | "`` in
        ascending bit order, and bits without a name are appended as one
        hexadecimal number (pycl extensions; see the module docstring).
        """
        value = operator.index(value)
        name_of = cls._name_of
        if name_of is None:
            name_of = cls._index()
        name = name_of.get(value)
        if name is not None:
            return name
        if cls._is_bitfield and value > 0:
            names = [n for bit, n in cls._bits if value & bit]
            if names:
                rest = value
                for bit, _ in cls._bits:
                    rest &= ~bit
                if rest:
                    names.append(hex(rest))
                return " | ".join(names)
        if default_format is None:
            raise ValueError(f"a name for value {value} was not found in {cls.__name__}")
        return default_format % value

    @classmethod
    def _index(cls) -> dict[int, str]:
        name_of: dict[int, str] = {}
        for attr in sorted(cls._values):  # the alphabetically first wins, as in PyOpenCL
            name_of.setdefault(cls._values[attr], attr)
        # _bits first: another thread that finds _name_of set finds _bits too.
        cls._bits = tuple(sorted((v, n) for v, n in name_of.items() if v > 0 and v & (v - 1) == 0))
        cls._name_of = name_of
        return name_of


def constant_class(cls_name: str, prefix: str, spec: str, bitfield: bool = False) -> type[ConstantClass]:
    """The class *cls_name*: for each name in *spec*, an attribute whose value
    is ``lib.<prefix + name>``, or ``lib.<C_NAME>`` for "NAME=C_NAME".
    *bitfield*: the values are bits to combine (PyOpenCL's bit-field classes,
    less queue_properties and version_bits, whose values are not bits)."""
    attrs: dict[str, int] = {}
    for item in spec.split():
        attr, sep, c_name = item.partition("=")
        if not sep:
            c_name = prefix + attr
        try:
            attrs[attr] = getattr(lib, c_name)
        except AttributeError:
            raise ImportError(f"pycl.constants: {cls_name}.{attr} needs {c_name}, which constants.h lacks") from None
    namespace = dict(
        attrs,
        __doc__=f"OpenCL constants, as PyOpenCL's ``{cls_name}``.",
        __module__="pycl.constants",  # where users find the classes
        __qualname__=cls_name,
        _is_bitfield=bitfield,
        _values=attrs,
    )
    return cast("type[ConstantClass]", ConstantType(cls_name, (ConstantClass,), namespace))
