"""OpenChatML 2.x and Harmony text: the reader (reader.py, with body.py), one message header
(header.py), the YAML document header (yaml_header.py), TypeScript-like tool declarations (tool_namespace.py),
and the control tokens (tokens.py)."""
from viewer.parse.harmony.reader import parse_harmony

__all__ = ["parse_harmony"]
