"""Import chat messages written as JSON into the one model (dialect `json`).

Containers (container.py): a bare list; an envelope whose list member holds the conversation (`messages`,
ShareGPT's `conversations`, a Responses API request's `input` or response's `output`), whose `tools` give
`Transcript.tools`, whose prompts (`system`, `instructions`) are messages and whose other keys give `header`;
a single message object (an Anthropic response is one); JSON Lines (one element per line); an array holding one
whole conversation (a dataset trimmed to one record). Records (shapes.py, level `record`): an object that is one
conversation without a message list at its top, read by the module of its shape: a Gemini request or response (gemini.py;
its contents: gemini_content.py), a Chat Completions response (completions.py), an OpenAI or Anthropic batch
line (batches.py), an Ollama response and the chunks of a streamed one (ollama.py), a preference pair
(preference.py). Streamed answers (shapes.py, level `stream`): the chunks of an Ollama answer, of a Chat Completion
(completion_chunks.py) or of a Gemini answer (gemini_chunks.py) are one element per answer, choice or candidate,
whether written as JSON Lines, a JSON array or server-sent events (`data: {…}` lines, container.py).

Element shapes (shapes.py, level `element`, picks the reader of each element by its marks; their keys may mix):
- OpenChatML 2.0 §10: `role`, `thinking`, `content`, `tool_calls: [{id, function: {name, arguments}}]`.
- OpenChatML 2.2 §10: `role`, `channel`, `content`, `intent`, `thinking`,
  `tool_call: {id, recipient, content_type, arguments}`; also `recipient`, `call_id`, `content_type`.
- OpenAI chat: `name`, `tool_calls`, `tool_call_id` on `role: "tool"` replies (legacy `role: "function"` too),
  `reasoning_content` / `reasoning` / `thinking`, content as text (`<think>…</think>` in an assistant's text is
  reasoning, think.py) or a list of parts.
- openai-harmony message dicts: `author: {role, name}` (or `role`/`name` flat, as `Message.to_dict()` writes),
  `recipient`, `channel`, `content_type` (`<|constrain|>json` marks a constraint), `content` parts, including
  `system_content` and `developer_content`, whose tool namespaces are read into `Transcript.tools`.
- Anthropic Messages: content blocks (anthropic.py): `thinking`, `redacted_thinking`, `tool_use`,
  `tool_result`, server tools; `image` and `document` as placeholders (media.py).
- OpenAI Responses API items (responses.py): `message`, `reasoning`, `function_call`, `function_call_output`,
  built-in tools' `*_call` items and their outputs.
- ShareGPT turns (sharegpt.py): `{"from", "value"}`, with `function_call` and `observation`.

Fail closed, part by part (parts.py): a content part or item whose type the importer does not know is a
message of its own that the policy hides (its channel is the type's name), shown in the debug view, and named
by W-JSON-UNKNOWN-PART or W-JSON-UNKNOWN-ITEM. Reasoning in any spelling is `analysis`. Opaque data (a
signature, redacted thinking, encrypted reasoning) is never message text: W-JSON-OPAQUE-DATA says it is there
and how long it is. Images and files are placeholders naming their address or media type and size; their data
never becomes text.

One element is one turn and gives its messages in this order: each distinct reasoning text (analysis), the
content (its parts in order), then each tool call (assistant `commentary` to the tool's address,
`functions.<name>` — a namespaced name like `browser.search` and the built-in `python` are kept, as in every
dialect (qualified_tool_name); the built-in tools of the Responses API and Anthropic keep their own names
(`web_search`) — content type json, constrained, `call_id` = the call's id, end `call`). Content written beside
tool calls comes before them: producers emit it first (OpenAI's "let me check", a Harmony preamble), while the
final answer of the spec's invocation sequence (§8) arrives in a later element, after the tool's reply. A tool
reply (`role: tool`, a `tool_result` block, a `*_output` item) is named by the same rule (or, when it names
nothing, after the call its id answers). JSON records no stop token, so messages end `end`, calls `call`:
nothing else is invented. Channels the source does not name default to `final`, or `commentary` for tool
replies and messages addressed to a tool.

Spans: an element that gives one message spans the whole element; otherwise each message spans its own
member (`"thinking": …`, `"content": …`, `"tool_call": …`) or item (a content part, a `tool_calls` item).
Everything between messages that was read (brackets, commas, `"role": …`, other envelope keys) is frame (kind
`json`).

Defects are diagnostics: W-JSON-SYNTAX (a document keeps the elements before the error and the diagnostic
covers the rest; JSON Lines skip just the bad lines), W-JSON-SHAPE (an element or tool call that is not an
object), W-JSON-FIELD-TYPE (a number where text belongs, read as its JSON text), W-UNKNOWN-ROLE,
W-UNKNOWN-CHANNEL, W-JSON-MISSING-CONTENT, W-JSON-CONTENT-PART (a text part with no text), W-JSON-MIXED-CALLS
(2.0 `tool_calls` beside a 2.2 `tool_call`: both are read, though 2.2 §6 forbids the mix), W-UNCLOSED-BLOCK
(an unclosed `<think>`) and W-TOOL-ERROR (a `tool_result` with `is_error`, an MCP call's error).

Nothing is lost (docs/architecture.md, "Nothing lost"): what a response says of itself is its messages' meta
(response_meta.py), the envelope's other members and its tools as written are the header, a member of an
element that its reader does not claim is kept raw in the header's `unread` with W-JSON-UNREAD, and the text
W-JSON-SYNTAX says was not read is kept as written in the header's `unread_text` (unpacked.with_unread_text).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from viewer.model import faces

if TYPE_CHECKING:
    from viewer.parse.json.builder import MessageBuilder
    from viewer.parse.json.conversation import read_conversation
    from viewer.parse.json.reader import parse_json, parse_json_within
    from viewer.parse.json.unpacked import ENVELOPE_KEYS

# Each name is imported from its module when first read (`__getattr__`): a module of the package (the Inspect AI
# archive's reader, which decoding every upload asks) is imported without every JSON reader, which a file of
# another dialect never needs.
_MODULE_OF = {"ENVELOPE_KEYS": "unpacked", "MessageBuilder": "builder", "parse_json": "reader",
              "parse_json_within": "reader", "read_conversation": "conversation"}

__all__ = ["ENVELOPE_KEYS", "MessageBuilder", "parse_json", "parse_json_within", "read_conversation"]


def __getattr__(name: str) -> object:
    """One of `__all__`, from its module, kept here once read; or one of the package's modules."""
    return faces.attribute(globals(), _MODULE_OF, name)
