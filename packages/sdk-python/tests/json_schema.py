"""A small JSON Schema (draft 2020-12) checker for the keywords zod's export uses, so the tests
can hold the Python SDK's messages to packages/shared/protocol/exhibit-sdk.schema.json without a
third-party validator."""

from __future__ import annotations

from typing import Any

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
}
_KNOWN = {
    "$schema", "$defs", "$ref", "$comment", "type", "properties", "required", "additionalProperties", "propertyNames", "items",
    "minItems", "maxItems", "minLength", "maxLength", "minimum", "maximum", "enum", "const", "anyOf", "oneOf", "default",
    "description", "id", "pattern", "format", "exclusiveMinimum", "exclusiveMaximum",
}


def problems(schema: dict[str, Any], value: Any, root: dict[str, Any] | None = None, at: str = "$") -> list[str]:
    """What in ``value`` does not fit ``schema`` (empty when it fits)."""
    root = root or schema
    unknown = set(schema) - _KNOWN
    if unknown:
        raise ValueError(f"json_schema.py does not know the keywords {sorted(unknown)} (at {at})")
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        return problems(root["$defs"][name], value, root, at)
    found: list[str] = []
    kinds = schema.get("type")
    if kinds is not None and not any(_TYPES[kind](value) for kind in (kinds if isinstance(kinds, list) else [kinds])):
        return [f"{at}: expected {kinds}"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{at}: expected {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{at}: expected one of {schema['enum']}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", len(value)):
            found.append(f"{at}: length out of bounds")
    if _TYPES["number"](value):
        if value < schema.get("minimum", value) or value > schema.get("maximum", value):
            found.append(f"{at}: out of range")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
            found.append(f"{at}: number of items out of bounds")
        if "items" in schema:
            for i, item in enumerate(value):
                found += problems(schema["items"], item, root, f"{at}[{i}]")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        found += [f"{at}: {key} is required" for key in schema.get("required", []) if key not in value]
        for key, item in value.items():
            if key in properties:
                found += problems(properties[key], item, root, f"{at}.{key}")
            elif schema.get("additionalProperties") is False:
                found.append(f"{at}: unknown key {key}")
            elif isinstance(schema.get("additionalProperties"), dict):
                found += problems(schema["additionalProperties"], item, root, f"{at}.{key}")
            if "propertyNames" in schema:
                found += problems(schema["propertyNames"], key, root, f"{at} key {key!r}")
    for keyword in ("anyOf", "oneOf"):
        if keyword in schema:
            fits = sum(1 for option in schema[keyword] if not problems(option, value, root, at))
            if fits == 0 or (keyword == "oneOf" and fits > 1):
                found.append(f"{at}: fits {fits} of the {keyword} options")
    return found
