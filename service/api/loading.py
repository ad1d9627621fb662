"""Loading request bodies with their marshmallow schemas, by a shorter road when nothing is wrong.

``Schema.load`` spends more on its own bookkeeping (an error store, a closure and a call per field,
a validator chain rebuilt per field, the hooks, partial loading, the unknown-field check) than the
fields spend on the values. ``Loader`` compiles a schema once into one small function per field,
made from the field's own settings: required, ``load_default``, its validators and, for the field
types the requests use, a quick test of the JSON value (``quick_load``) that takes only values the
field's ``_deserialize`` takes (never null) and returns what it returns. Any other value (null
included), and any other field type, goes through the field's own ``deserialize``. Nested schemas
are compiled alike, and a schema's ``validates_schema`` hooks are called as ``Schema.load`` calls them.

At the first doubt of any kind (a missing required field, a refusal by a field, a validator or a
hook, an unknown key, a body that is not an object), the whole body goes to ``Schema.load``, so
every error is marshmallow's own, with its whole error tree. A schema that uses what the short road does
not reproduce (other hooks, renamed or dotted fields, partial loading, ``many``, unknown fields
other than refused) is always loaded by ``Schema.load``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, missing, validate
from marshmallow.decorators import POST_LOAD, PRE_LOAD, VALIDATES, VALIDATES_SCHEMA
from marshmallow.fields import Field

_OTHER_HOOKS = (PRE_LOAD, POST_LOAD, VALIDATES)
Convert = Callable[[Any, Any], Any]  # (value, parent object) -> loaded value


class Slow(Exception):
    """The short road declines the body: ``Schema.load`` decides."""


class Loader:
    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.known = frozenset(schema.load_fields)
        plan = _plan(schema)
        self.fields: list[tuple[str, bool, Any, Convert]] | None = plan
        validators = [] if plan is None else _schema_validators(schema)
        self.validators: list[Callable[..., Any]] | None = validators
        if validators is None:
            self.fields = None  # Schema.load every time

    def load(self, data: Any) -> dict[str, Any]:
        if self.fields is not None:
            try:
                return self.quick(data)
            except (Slow, ValidationError):
                pass
        loaded: dict[str, Any] = self.schema.load(data)
        return loaded

    def quick(self, data: Any) -> dict[str, Any]:
        """The body loaded by the short road; raises ``Slow`` or ``ValidationError`` at any doubt."""
        fields = self.fields
        if fields is None or type(data) is not dict or not data.keys() <= self.known:
            raise Slow
        loaded: dict[str, Any] = {}
        for name, required, default, convert in fields:
            value = data.get(name, missing)
            if value is missing:
                if required:
                    raise Slow
                if default is not missing:
                    loaded[name] = default() if callable(default) else default
                continue
            loaded[name] = convert(value, data)
        if self.validators:
            unknown = self.schema.unknown
            for hook in self.validators:
                hook(loaded, partial=False, many=False, unknown=unknown)
        return loaded


def _plan(schema: Schema) -> list[tuple[str, bool, Any, Convert]] | None:
    """One entry per field (its name, whether it is required, its load_default and its conversion),
    or None when the short road cannot reproduce ``Schema.load`` for this schema."""
    if schema.many or schema.partial or schema.unknown != RAISE or any(schema._hooks[h] for h in _OTHER_HOOKS):
        return None
    plan = []
    for name, field in schema.load_fields.items():
        if field.data_key is not None or field.attribute is not None or "." in name:
            return None
        plan.append((name, field.required, field.load_default, _converter(field, name)))
    return plan


def _schema_validators(schema: Schema) -> list[Callable[..., Any]] | None:
    """The ``validates_schema`` hooks, bound, in the order ``Schema.load`` calls them (one object,
    not the collection; no original data), or None if one needs what the short road lacks."""
    hooks = []
    for attr_name, pass_collection, options in schema._hooks[VALIDATES_SCHEMA]:
        if pass_collection or options.get("pass_original"):
            return None
        hooks.append(getattr(schema, attr_name))
    return hooks


def _converter(field: Field[Any], name: str | None) -> Convert:
    """How a present value of ``field`` loads: the quick test, then the field's validators; a value
    the quick test does not take (null included) goes to the field's own ``deserialize``, which
    applies null, the conversion and the validators as marshmallow does."""
    generic = field.deserialize

    def general(value: Any, data: Any) -> Any:
        return generic(value, name, data, partial=False)

    quick = None if field.pre_load or field.post_load else _quick_of(field)  # marshmallow 4 field processors
    if quick is None:
        return general
    check = _validation(field)
    if check is None:

        def convert(value: Any, data: Any) -> Any:
            out = quick(value)
            return general(value, data) if out is missing else out

        return convert

    def checked(value: Any, data: Any) -> Any:
        out = quick(value)
        if out is missing:
            return general(value, data)
        check(out)
        return out

    return checked


def _quick_of(field: Field[Any]) -> Callable[[Any], Any] | None:
    """The quick test of a field: the loaded value, or ``missing`` when the value needs the field's
    own ``_deserialize``. Only for field types whose ``_deserialize`` it is known to match."""
    own = getattr(field, "quick_load", None)  # the service's fields (fields.py, schemas.py) say it themselves
    if own is not None:
        quick: Callable[[Any], Any] = own
        return quick
    kind = type(field)
    if kind is fields.String:
        return lambda value: value if type(value) is str else missing
    if kind is fields.List and isinstance(field, fields.List):
        inner = _converter(field.inner, None)

        def many(value: Any) -> Any:
            if type(value) is not list:
                return missing
            return [inner(item, None) for item in value]

        return many
    if kind is fields.Nested and isinstance(field, fields.Nested):
        nested = field.schema
        if field.many or field.unknown is not None or field.only is not None or field.exclude:
            return None
        loader = Loader(nested)
        if loader.fields is None:
            return None
        nested_quick = loader.quick  # raises at any doubt, as a whole body would

        def one(value: Any) -> Any:
            return nested_quick(value) if type(value) is dict else missing

        return one
    return None


def _validation(field: Field[Any]) -> Callable[[Any], None] | None:
    """The field's validators as one check that raises ``Slow`` or ``ValidationError`` where any of
    them refuses (a refusal is marshmallow's to word, so the whole body goes to ``Schema.load``)."""
    checks = [_check_of(v) for v in field.validators]
    if not checks:
        return None
    if len(checks) == 1:
        return checks[0]

    def all_of(value: Any) -> None:
        for check in checks:
            check(value)

    return all_of


def _check_of(validator: Callable[[Any], Any]) -> Callable[[Any], None]:
    kind = type(validator)
    if kind is validate.Range and validator.min_inclusive and validator.max_inclusive:  # type: ignore[attr-defined]
        low, high = validator.min, validator.max  # type: ignore[attr-defined]
        if low is not None and high is not None:

            def within(value: Any) -> None:
                if not low <= value <= high:
                    raise Slow

            return within
    if kind is validate.Length and validator.equal is None:  # type: ignore[attr-defined]
        shortest = validator.min if validator.min is not None else 0  # type: ignore[attr-defined]
        longest = validator.max  # type: ignore[attr-defined]

        def sized(value: Any) -> None:
            n = len(value)
            if n < shortest or (longest is not None and n > longest):
                raise Slow

        return sized
    if kind is validate.OneOf and all(type(c) is str for c in validator.choices):  # type: ignore[attr-defined]
        choices = frozenset(validator.choices)  # type: ignore[attr-defined]

        def among(value: Any) -> None:
            if type(value) is not str or value not in choices:
                raise Slow

        return among

    def general(value: Any) -> None:
        # As marshmallow's And: a validator refuses by raising, or a plain function by returning False.
        if validator(value) is False and not isinstance(validator, validate.Validator):
            raise Slow

    return general
