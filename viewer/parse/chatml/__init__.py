"""ChatML and OpenChatML 0.1 (plain and extended) transcripts, read into the one model.

Frame
    `<s>` `</s>`, `[BOS]` `[EOS]` and `<|begin_of_text|>` `<|end_of_text|>` outside any message become frame
    segments of kind `bos` / `eos` (their text is the token as written). Inside a message body `<s>`/`</s>` are
    Markdown strikethrough and stay text; the other spellings end the body (see "Broken envelopes").

Envelopes
    `<|im_start|>HEADER` line break `BODY` `<|im_end|>`. The header line runs from `<|im_start|>` to the first
    line break or the first `<|` token, whichever comes first; it holds the role word and at most one
    `name=<name>` (no whitespace). Anything else there, a missing role or an empty name is E-PARSE-HEADER; a role
    other than system, tool, user, assistant is kept as written with W-UNKNOWN-ROLE.
    The line break that ends the header line (LF or CRLF) belongs to the header, and one line break directly
    before the closing token belongs to that token; neither is content. Everything else, including CRLF inside
    the body and further blank lines, is content as written. A message ended by `<|im_end|>` has end `end`.
    Every envelope is one turn; `turn` counts envelopes (a fill-in-the-middle or multi-file document outside
    any envelope counts as one too), in source order from 0.

Tokens inside a body (a token written between backticks, as in a prompt that talks about `<|function_list|>`,
is text; so are `<|function_call|>` outside assistant messages and `<|function_output|>` outside tool messages)
    `<|reflect|>` `<|introspect|>` `<|reason|>`: flag segments (text = the flag's name), not content.
    `<|start_X|>…<|end_X|>` (X = reflect, introspect, reason): in an assistant envelope a message of its own
        (role assistant, channel `analysis`, one segment of kind X whose span is the whole block); elsewhere a
        segment of the message. An unclosed block runs to the end of the body (W-UNCLOSED-BLOCK); an `<|end_X|>`
        with no open block stays text (W-UNMATCHED-TOKEN).
    `<|function_call|>` + JSON `{"arguments": {…}, "name": "f"}` (assistant): a call message (channel
        `commentary`, recipient `functions.f`, content_type `json`, content = the arguments re-encoded as JSON,
        end `call`, one `function_call` segment holding the raw JSON). Unreadable JSON, or no string `name`, or
        no object `arguments`: still a call message (recipient None, content = the raw text) with E-CALL-SCHEMA.
    `<|function_output|>` + JSON `{"name": "f", "content": …}` (tool): a reply message (name `functions.f`,
        recipient `assistant`, channel `commentary`, content = the JSON as written, one `function_output`
        segment). Unreadable JSON: name None and W-JSON-SYNTAX.
    `<|function_list|>` + one or more JSON values (objects, or lists of them) in OpenAI tool form
        (`{"type": "function", "function": {"name", "description", "parameters"}}`, or the inner object alone):
        a `function_list` segment; each `parameters` schema goes to `Transcript.tools` under the tool's address.
        Reading stops at the first text that does not start a JSON value; unreadable JSON is W-JSON-SYNTAX and
        a definition without a name W-TOOL-DEFINITION. The JSON stays in the content (the model saw it).
    Tool names become addresses as in every dialect (common.qualified_tool_name): `f` is `functions.f`, while a
    namespaced name (`browser.search`) and the built-in `python` are kept.
    A JSON value after a token is read up to the next body token, so a value whose strings contain a token is
    unreadable; that keeps reading linear in the size of the input.
    The remaining text of an assistant or tool envelope becomes messages of the envelope's role (channel
    `final`): one per stretch of non-blank text between the split-off messages above, so the messages of a turn
    keep non-overlapping spans in source order. The first message of a turn also spans the header and the last
    one the closing token.

Tags real chat templates write (Qwen3, QwQ, DeepSeek-R1 reasoning; Hermes, Qwen2.5, Qwen3 tool use; tags.py)
    A tag between backticks is text, as a token is. Which turns read which tags:
    assistant: `<think>…</think>`: a message of its own (role assistant, channel `analysis`, one `think` segment
        whose span is the block; content = the text inside, one line break dropped at each end). The line breaks
        after `</think>` (templates write `</think>\n\n`) lie in no message. An empty block (Qwen3 with thinking
        off writes `<think>\n\n</think>\n\n`) is an empty analysis message, kept so the source stays visible in
        the debug view; the policy hides analysis. An unclosed block runs to the end of the body
        (W-UNCLOSED-BLOCK; a cut stream also has the envelope's E-STREAM-TRUNCATED). When the body's first think
        tag is `</think>`, the template wrote `<think>` into the prompt (QwQ, DeepSeek-R1): the body from its
        start to that tag is the reasoning block. A later `</think>` with no `<think>` makes the text since the
        previous part reasoning too (W-THINK-UNOPENED): fail closed. Tags inside a block are its text.
        `<tool_call>` + one JSON value + `</tool_call>` (one or many per turn, whitespace around the JSON): a
        call message as for `<|function_call|>` (channel `commentary`, recipient `functions.<name>`, content
        the arguments as JSON, end `call`, one `tool_call` segment with the JSON as written). A block that is
        not exactly one JSON value with a string `name` and an object `arguments`: a call of an unknown tool
        (recipient None, content the text as written, content_type None) with E-CALL-SCHEMA; the default view
        shows calls only as a note.
    user and tool: `<tool_response>` + text + `</tool_response>`: a reply message (role tool, recipient
        `assistant`, channel `commentary`, name `functions.<name>` when the text is JSON with a string `name`,
        content_type `json` when the text is one JSON value, one `tool_response` segment). The Qwen templates
        write the replies to parallel calls as one user turn of such blocks: that turn gives only replies;
        other text of a user turn stays a user message beside them. Replies pair with calls in order (ChatML's
        rule, importers.py).
    Misplaced blocks (`<tool_call>` in a user or tool turn, `<tool_response>` in an assistant turn): a message
        whose role is the tag's word (`tool_call`, `tool_response`) and whose channel is `unclassified`, which
        no policy rule shows, with W-MISPLACED-BLOCK. A closing tag with no open block stays text
        (W-UNMATCHED-TOKEN). `<think>` in a user or tool turn, and every tag in a system turn (Hermes and Qwen
        system prompts show the model `<tool_call>` as an example) or a turn of an unknown role, stay text.
    system: each `<tools>…</tools>` holding JSON (one object per line, several in a row, or a list; each
        `{"type": "function", "function": {…}}` or the bare function object) declares its tools'
        `parameters` in `Transcript.tools`, so the shared checks test calls against them (E-CALL-SCHEMA).
        Unreadable JSON is W-JSON-SYNTAX, a definition without a name W-TOOL-DEFINITION; a blank block (the
        prompt naming "<tools></tools> XML tags") is nothing. The text stays the system message's content.

Fill-in-the-middle and multi-file documents (inside a message, or as text between envelopes)
    A message whose text holds `<|fim_prefix|>` `<|fim_middle|>` `<|fim_suffix|>` or `<|file_separator|>` gets
    segments a renderer can show as panels, in source order: the text after a FIM marker is a segment of that
    marker's kind (exactly as written; in a task the `fim_middle` segment is empty and marks the cursor, in a
    completion it holds the model's infill); with separators, each file is a `file` segment (without its
    separator; blank files are skipped), and a file that holds FIM markers gives FIM segments instead; other
    text before the first marker is a `text` segment. The content is the text with the tokens removed
    (prefix + middle + suffix in the order written). Such a document outside any envelope becomes one message
    of role `user`. Whenever a message has segments, they cover its text in order (plain stretches as `text`
    segments). `text`, `file` and thought segments drop one line break at each end (it belongs to the
    neighbouring token); FIM segments are exact, since a line break there is part of the code.

Broken envelopes
    No `<|im_end|>` before the end of the input: end `eof` and E-STREAM-TRUNCATED. `<|im_start|>`, `[BOS]` or
    `<|begin_of_text|>` inside an open body closes it there (end `eof`, W-START-IN-BODY) and starts anew;
    `[EOS]` or `<|end_of_text|>` inside a body closes it (end `end`, W-EOS-IN-BODY). A call message keeps
    end `call`. Non-blank text between envelopes that is not a document, and a stray `<|im_end|>`, are
    W-STRAY-TEXT. With `ParseOptions.primed_role`, text before the first envelope is the body of a message of
    that role (a completion after a prefilled `<|im_start|>ROLE`).
"""
from __future__ import annotations

from viewer.model import Transcript
from viewer.model.collector import collector_paused
from viewer.parse.chatml.envelopes import Reader
from viewer.parse.options import ParseOptions


def parse_chatml(text: str, options: ParseOptions) -> Transcript:
    """Parse ChatML / OpenChatML 0.1 text. Never raises: every defect is a diagnostic.

    The reader walks envelopes (envelopes.py, finding tokens with marks.py), cuts each body into pieces
    (body.py, with template tags read by tags.py and what both share in scanning.py), and makes the stretches of a
    turn into messages (turns.py)."""
    with collector_paused:  # see viewer/model/collector.py: a big transcript's objects all live on
        return Reader(text, options).run()


__all__ = ["parse_chatml"]
