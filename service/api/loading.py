"""Loading request bodies with their marshmallow schemas, by a shorter road when nothing is wrong.

``Schema.load`` spends more on its own bookkeeping (an error store, a closure and a call per field,
a validator chain rebuilt per field, the hooks, partial loading, the unknown-field check) than the
fields spend on the values. ``Loader`` compiles a schema once into one function (``quick``), made
from the fields' own settings: required, ``load_default``, the validators and, for the field types
the requests use, a quick test of the JSON value that takes only values the field's
``_deserialize`` takes (never null) and returns what it returns: a field either names the one JSON
type it takes as it is (``quick_type``), or has a ``quick_load``. A value of that type whose
validators are comparisons (Range, Length, OneOf) is checked in line; any other value (null
included), and any other field type, goes through the field's own ``deserialize``. Nested schemas
are compiled alike.

At the first doubt of any kind (a missing required field, a refusal by a field, a validator or a
check, an unknown key, a body that is not an object), the whole body goes to ``Schema.load``, so
every error is marshmallow's own, with its whole error tree. Only a ``Checked`` schema takes the
short road: its checks across fields are named in ``checks``, which the short road calls as its one
``validates_schema`` hook does, and it has no other marshmallow hook (tests/api/test_loading.py
reads the schemas' source for one). Any other schema, or one that uses what the short road does not
reproduce (renamed or dotted fields, partial loading, ``many``, unknown fields other than refused),
is loaded by ``Schema.load``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from marshmallow import RAISE, Schema, ValidationError, fields, missing, validate, validates_schema
from marshmallow.fields import Field

Convert = Callable[[Any, Any], Any]  # (value, parent object) -> loaded value
Quick = Callable[[Any], dict[str, Any]]


class Checked(Schema):
    """A schema whose checks across fields are its methods named in ``checks``: each takes the loaded
    fields and raises ``ValidationError``. ``Schema.load`` calls them by the one hook below (every
    error kept, as marshmallow keeps those of several hooks); the short road calls them itself."""

    checks: ClassVar[tuple[str, ...]] = ()
    # What the checks refuse, in JSON Schema's words where it has them: service/api/spec.py adds these
    # keywords to the schema's component, so that the contract states them too.
    contract: ClassVar[dict[str, Any]] = {}

    @validates_schema
    def _run_checks(self, data: dict[str, Any], **kwargs: Any) -> None:
        errors: dict[str, list[Any]] = {}
        for name in self.checks:
            try:
                getattr(self, name)(data)
            except ValidationError as exc:  # a message (or list of them) for exc.field_name
                messages = exc.messages if isinstance(exc.messages, list) else [exc.messages]
                errors.setdefault(exc.field_name, []).extend(messages)
        if errors:
            raise ValidationError(errors)


class Slow(Exception):
    """The short road declines the body: ``Schema.load`` decides."""


def _declined(data: Any) -> dict[str, Any]:
    raise Slow


class Loader:
    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.known = frozenset(schema.load_fields)
        self.fields: list[tuple[str, bool, Any, Convert]] | None = _plan(schema)
        checks = [getattr(schema, name) for name in schema.checks] if isinstance(schema, Checked) else []
        # The body loaded by the short road; raises ``Slow`` or ``ValidationError`` at any doubt.
        self.quick: Quick = _declined if self.fields is None else _compile(self, checks)

    def load(self, data: Any) -> dict[str, Any]:
        if self.fields is not None:
            try:
                return self.quick(data)
            except (Slow, ValidationError):
                pass
        loaded: dict[str, Any] = self.schema.load(data)
        return loaded


def _plan(schema: Schema) -> list[tuple[str, bool, Any, Convert]] | None:
    """One entry per field (its name, whether it is required, its load_default and its conversion),
    or None when the short road cannot reproduce ``Schema.load`` for this schema."""
    if not isinstance(schema, Checked) or schema.many or schema.partial or schema.unknown != RAISE:
        return None
    plan = []
    for name, field in schema.load_fields.items():
        if field.data_key is not None or field.attribute is not None or "." in name or not name.isidentifier():
            return None
        plan.append((name, field.required, field.load_default, _converter(field, name)))
    return plan


def _compile(loader: Loader, checks: list[Callable[[dict[str, Any]], None]]) -> Quick:
    """The schema's short road as one function, written out field by field, then its checks: what the loop over the
    fields and a converter call per field cost was most of a body's loading time. For a field that
    takes a JSON type as it is, with comparisons for validators, the test is written in line;
    anything else calls the field's converter (``_converter``), which raises at any doubt."""
    assert loader.fields is not None
    env: dict[str, Any] = {"Slow": Slow, "MISSING": missing, "KNOWN": loader.known}
    lines = [
        "def quick(data):",
        "    if type(data) is not dict or not data.keys() <= KNOWN:",
        "        raise Slow",
        "    out = {}",
    ]
    for i, (name, required, default, convert) in enumerate(loader.fields):
        env[f"convert{i}"] = convert
        lines += [f"    value = data.get({name!r}, MISSING)", "    if value is MISSING:"]
        if required:
            lines.append("        raise Slow")
        elif default is missing:
            lines.append("        pass")
        else:
            env[f"default{i}"] = default
            lines.append(
                f"        out[{name!r}] = default{i}()" if callable(default) else f"        out[{name!r}] = default{i}"
            )
        inline = _inline_test(loader.schema.load_fields[name], f"f{i}_", env)
        if inline is not None:
            test, loaded = inline
            lines += [f"    elif {test}:", f"        out[{name!r}] = {loaded}"]
        lines += ["    else:", f"        out[{name!r}] = convert{i}(value, data)"]
    for j, check in enumerate(checks):
        env[f"check{j}"] = check
        lines.append(f"    check{j}(out)")
    lines.append("    return out")
    exec("\n".join(lines), env)  # noqa: S102 - code written here, from the schema's own settings
    quick: Quick = env["quick"]
    return quick


def _inline_test(field: Field[Any], prefix: str, env: dict[str, Any]) -> tuple[str, str] | None:
    """A Python condition that holds only when the field would load ``value`` without a refusal, and
    the expression of the loaded value (``value`` itself, or ``loaded`` that the condition set); None
    when the field needs its converter."""
    if field.pre_load or field.post_load:
        return None
    kind = _quick_type(field)
    if kind is not None:
        env[prefix + "type"] = kind
        checks = _inline_checks(field, "value", prefix, env)
        return None if checks is None else (" and ".join([f"type(value) is {prefix}type", *checks]), "value")
    quick = getattr(field, "quick_load", None)
    if quick is not None:
        env[prefix + "quick"] = quick
        checks = _inline_checks(field, "loaded", prefix, env)
        test = f"(loaded := {prefix}quick(value)) is not MISSING"
        return None if checks is None else (" and ".join([test, *checks]), "loaded")
    if not isinstance(field, fields.List) or not _plain_list(field):
        return None
    inner, outer = field.inner, _inline_checks(field, "value", prefix, env)
    if outer is None or inner.pre_load or inner.post_load or inner.allow_none:
        return None
    head = ["type(value) is list", *outer]
    kind = _quick_type(inner)
    if kind is not None:  # a list of numbers, say: their types in one set, their range by min and max
        env[prefix + "types"] = frozenset({kind})
        tests = [*head, f"set(map(type, value)) <= {prefix}types"]
        for k, validator in enumerate(inner.validators):
            bounds = _bounds(validator)
            if bounds is None or bounds[2]:  # only ranges of the items' values
                return None
            low, high, _ = bounds
            if low is not None:
                env[f"{prefix}ilow{k}"] = low
                tests.append(f"(not value or {prefix}ilow{k} <= min(value))")
            if high is not None:
                env[f"{prefix}ihigh{k}"] = high
                tests.append(f"(not value or max(value) <= {prefix}ihigh{k})")
        return " and ".join(tests), "list(value)"
    quick = getattr(inner, "quick_load", None)
    if quick is None or inner.validators:
        return None
    env[prefix + "quick"] = quick  # a list of card lists, say: each item by its quick test
    test = f"MISSING not in (loaded := [{prefix}quick(item) for item in value])"
    return " and ".join([*head, test]), "loaded"


def _inline_checks(field: Field[Any], subject: str, prefix: str, env: dict[str, Any]) -> list[str] | None:
    """The field's validators as conditions on ``subject``, or None if one is not a comparison."""
    tests = []
    for k, validator in enumerate(field.validators):
        bounds = _bounds(validator)
        if bounds is not None:
            low, high, measure = bounds
            of = f"len({subject})" if measure else subject
            if low is not None:
                env[f"{prefix}low{k}"] = low
                tests.append(f"{prefix}low{k} <= {of}")
            if high is not None:
                env[f"{prefix}high{k}"] = high
                tests.append(f"{of} <= {prefix}high{k}")
        elif type(validator) is validate.OneOf and all(type(c) is str for c in validator.choices):
            env[f"{prefix}choices{k}"] = frozenset(validator.choices)
            tests.append(f"type({subject}) is str and {subject} in {prefix}choices{k}")
        else:
            return None
    return tests


def _plain_list(field: fields.List[Any]) -> bool:
    """A marshmallow List itself, or one that says it loads as a List does (``loads_as_list``)."""
    return type(field) is fields.List or bool(getattr(field, "loads_as_list", False))


def _quick_type(field: Field[Any]) -> type | None:
    """The JSON type whose values the field's ``_deserialize`` returns as they are (a ``str`` for a
    plain string field), or None."""
    own: type | None = getattr(field, "quick_type", None)  # the service's fields say it themselves
    if own is not None:
        return own
    return str if type(field) is fields.String else None


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
    own = getattr(field, "quick_load", None)  # the service's fields (fields.py) say it themselves
    if own is not None:
        quick: Callable[[Any], Any] = own
        return quick
    kind = _quick_type(field)
    if kind is not None:
        return lambda value: value if type(value) is kind else missing
    if isinstance(field, fields.List) and _plain_list(field):
        inner = _converter(field.inner, None)

        def many(value: Any) -> Any:
            if type(value) is not list:
                return missing
            return [inner(item, None) for item in value]

        return many
    if type(field) is fields.Nested and isinstance(field, fields.Nested):
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


def _bounds(validator: Any) -> tuple[Any, Any, bool] | None:
    """(lowest, highest, of the length) for a Range with both ends inclusive (of the value) or a Length
    without ``equal`` (of the length): None stands for no bound; None when it is neither."""
    kind = type(validator)
    if kind is validate.Range and validator.min_inclusive and validator.max_inclusive:
        return validator.min, validator.max, False
    if kind is validate.Length and validator.equal is None:
        return validator.min, validator.max, True
    return None


def _check_of(validator: Callable[[Any], Any]) -> Callable[[Any], None]:
    bounds = _bounds(validator)
    if bounds is not None:
        low, high, measure = bounds

        def within(value: Any) -> None:
            n = len(value) if measure else value
            if (low is not None and n < low) or (high is not None and n > high):
                raise Slow

        return within
    if type(validator) is validate.OneOf and all(type(c) is str for c in validator.choices):
        choices = frozenset(validator.choices)

        def among(value: Any) -> None:
            if type(value) is not str or value not in choices:
                raise Slow

        return among

    def general(value: Any) -> None:
        # As marshmallow's And: a validator refuses by raising, or a plain function by returning False.
        if validator(value) is False and not isinstance(validator, validate.Validator):
            raise Slow

    return general
