"""TypeScript-like tool declarations of Harmony developer messages, read as JSON schemas."""
from __future__ import annotations

from tests.parse.helpers import codes
from viewer.parse import parse
from viewer.parse.harmony.tool_namespace import read_tool_namespaces


# --- tool declarations ----------------------------------------------------------------------------------------

DECLARATION = """namespace functions {
// Weather.
type get_weather = (_: {
  location: string, // city
  unit?: "celsius" | "fahrenheit",
  days?: number[],
  options?: { detailed: boolean },
}) => any;
type ping = () => any;
} // namespace functions"""


def test_typescript_declarations_give_json_schemas():
    assert read_tool_namespaces(DECLARATION) == {
        "functions.get_weather": {"type": "object", "properties": {
            "location": {"type": "string"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "days": {"type": "array", "items": {"type": "number"}},
            "options": {"type": "object", "properties": {"detailed": {"type": "boolean"}}, "required": ["detailed"]},
        }, "required": ["location"]},
        "functions.ping": {"type": "object", "properties": {}},
    }


def test_an_unreadable_declaration_is_skipped_and_the_rest_read():
    tools = read_tool_namespaces("namespace functions {\ntype bad = (_: { a: Map<string> }) => any;\n"
                                 "type good = (_: { b: string }) => any;\n}")
    assert list(tools) == ["functions.good"]


def test_a_call_against_a_declared_schema_is_checked():
    text = (f"<|start|>developer<|message|>{DECLARATION}<|end|>"
            "<|start|>assistant to=functions.get_weather<|channel|>commentary<|constrain|>json<|message|>"
            '{"unit": "kelvin"}<|call|>')
    t = parse(text)
    assert "functions.get_weather" in t.tools
    assert "E-CALL-SCHEMA" in codes(t)
