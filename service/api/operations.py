"""The registry of documented operations: each view declares its contract once, next to its code.

The spec builder (``service.api.spec``) reads this registry; nothing else describes an operation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint
from marshmallow import Schema


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str  # OpenAPI form, e.g. /v1/rulesets/{profile}
    summary: str
    description: str
    tag: str
    response: type[Schema] | None
    request: type[Schema] | None = None
    # name -> {summary, body}: a function, called when the spec is built (service/api/examples.py)
    examples: Callable[[], dict[str, dict[str, Any]]] | None = None
    media_type: str = "application/json"
    parameters: tuple[dict[str, Any], ...] = ()


OPERATIONS: list[Operation] = []
ENDPOINT_TO_OPERATION: dict[str, str] = {}


def operation(bp: Blueprint, op: Operation) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``op`` and route it to the decorated view."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        rule = op.path.replace("{", "<").replace("}", ">")
        bp.add_url_rule(rule, endpoint=op.operation_id, view_func=view, methods=[op.method.upper()])
        OPERATIONS.append(op)
        ENDPOINT_TO_OPERATION[f"{bp.name}.{op.operation_id}"] = op.operation_id
        return view

    return decorate
