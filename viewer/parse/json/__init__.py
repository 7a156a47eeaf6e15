"""Import chat messages written as JSON into the one model (dialect `json`).

Containers: a bare list of messages; an envelope `{"messages": [...], ...}` whose `tools` (OpenAI function
tools, or legacy `functions`) give `Transcript.tools` and whose other keys give `header`; a single message
object; JSON Lines (one message object per line).

Message shapes (one object each; their keys may mix):
- OpenChatML 2.0 §10: `role`, `thinking`, `content`, `tool_calls: [{id, function: {name, arguments}}]`.
- OpenChatML 2.2 §10: `role`, `channel`, `content`, `intent`, `thinking`,
  `tool_call: {id, recipient, content_type, arguments}`; also `recipient`, `call_id`, `content_type`.
- OpenAI chat: `name`, `tool_calls`, `tool_call_id` on `role: "tool"` replies (legacy `role: "function"` too),
  `reasoning_content` / `reasoning` / `thinking`, content as text or a list of parts `{"type": "text", "text"}`.
- openai-harmony message dicts: `author: {role, name}` (or `role`/`name` flat, as `Message.to_dict()` writes),
  `recipient`, `channel`, `content_type` (`<|constrain|>json` marks a constraint), `content` parts, including
  `system_content` and `developer_content`, whose tool namespaces are read into `Transcript.tools`.

One element is one turn and gives its messages in this order: each distinct reasoning text (analysis), the
content, then each tool call (assistant `commentary` to the tool's address, `functions.<name>` — a namespaced
name like `browser.search` and the built-in `python` are kept, as in every dialect (qualified_tool_name) —
content type json, constrained, `call_id` = the call's id, end `call`). Content written beside tool calls comes before
them: producers emit it first (OpenAI's "let me check", a Harmony preamble), while the final answer of the
spec's invocation sequence (§8) arrives in a later element, after the tool's reply. A tool reply (`role: tool`)
is named by the same rule (or, when it names nothing, after the call its `tool_call_id` answers). JSON records
no stop token, so messages end `end`, calls `call`: nothing else is invented. Channels the source does not
name default to `final`, or `commentary` for tool replies and messages addressed to a tool.

Spans: an element that gives one message spans the whole element; otherwise each message spans its own
member (`"thinking": …`, `"content": …`, `"tool_call": …`) or `tool_calls` item. Everything between messages
that was read (brackets, commas, `"role": …`, other envelope keys) is frame (kind `json`).

Defects are diagnostics: W-JSON-SYNTAX (a document keeps the elements before the error and the diagnostic
covers the rest; JSON Lines skip just the bad lines), W-JSON-SHAPE (an element or tool call that is not an
object), W-JSON-FIELD-TYPE (a number where text belongs, read as its JSON text), W-UNKNOWN-ROLE,
W-UNKNOWN-CHANNEL, W-JSON-MISSING-CONTENT, W-JSON-CONTENT-PART (a part with no text, such as an image), and
W-JSON-MIXED-CALLS (2.0 `tool_calls` beside a 2.2 `tool_call`: both are read, though 2.2 §6 forbids the mix).
"""
from __future__ import annotations

from viewer.model import Transcript
from viewer.parse.json.container import frame, read_container
from viewer.parse.json.elements import Importer
from viewer.parse.json.tools import declared_tools
from viewer.parse.options import ParseOptions

ENVELOPE_KEYS = ("messages", "tools", "functions")
"""Envelope keys the importer reads; the others become the transcript's header."""


def parse_json(text: str, options: ParseOptions) -> Transcript:
    """Read a JSON or JSON Lines transcript. Never raises on user input.

    container.py finds the message elements (positions.py reads JSON with spans), elements.py makes each
    element into messages (calls.py for its tool calls, harmony_text.py for openai-harmony's structured
    content), tools.py reads tool declarations."""
    reading = read_container(text)
    importer = Importer(text)
    for turn, element in enumerate(reading.elements):
        importer.add(element, turn)
    envelope = {key: member.node.value for key, member in reading.envelope.items()}
    claimed = [message.span for message in importer.messages]
    claimed += [diagnostic.span for diagnostic in (*reading.unread, *importer.diagnostics)]
    return Transcript(
        dialect="json", source=text, messages=tuple(importer.messages),
        diagnostics=(*reading.unread, *importer.diagnostics),
        header={key: value for key, value in envelope.items() if key not in ENVELOPE_KEYS},
        tools={**declared_tools(envelope), **importer.tools},
        frame=frame(text, claimed))


__all__ = ["parse_json"]
