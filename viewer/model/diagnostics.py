"""Every diagnostic code the viewer reports, with its severity and meaning, and the one way to make one.

A code's severity belongs to the code, not to the place that reports it, so every parser and check builds its
diagnostics through `make_diagnostic` (parsers through viewer.parse.common.Pending when the message is not
numbered yet), and a new code is added here first. The letter of a code is the taxonomy it comes from (`E-…`
from the OpenChatML specs, `W-…` our own), not its severity: a few `W-` codes are only `info`, and
W-PARSER-FAILED is an `error`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from viewer.model.transcript import Diagnostic, Span


class Code(NamedTuple):
    """What a diagnostic code means."""

    severity: str
    """`error`, `warning` or `info`."""
    summary: str
    """One sentence for a person; the message of a diagnostic whose reporter has nothing more precise to say."""
    when_expected: str | None = None
    """A milder severity for when the reporter knows the case is expected (a call that ends a transcript is
    waiting for its tool); None when the code has no such case."""


CODES: dict[str, Code] = {
    # Reading the text
    "W-DECODE-UTF8": Code("warning", "The input is not valid UTF-8; invalid bytes were replaced with U+FFFD."),
    "W-ARCHIVE": Code("error", "The zip archive cannot be read, or is too large to unpack; nothing of it is "
                               "shown."),
    "W-DATABASE": Code("error", "The SQLite database, or one of its tables, cannot be read (corrupt, crafted, or "
                                "over a bound); what could not be read is not shown."),
    "W-BUNDLE-MEMBER": Code("info", "A file of the upload that this format's reader does not read; it is kept in "
                                    "the source."),
    "W-BUNDLE-FRAME": Code("warning", "The text opens as a bundle of files, but its frame does not hold here; the "
                                      "rest was not read."),
    "W-LONE-SURROGATE": Code("warning", "Lone UTF-16 surrogates cannot be shown or stored; they were replaced "
                                        "with U+FFFD."),
    "W-PARSER-FAILED": Code("error", "The parser failed on this input; the raw text is kept and nothing is shown."),
    # Messages and their headers
    "E-PARSE-HEADER": Code("error", "A message header cannot be read as written."),
    "E-PARSE-CHANNEL-MISSING": Code("error", "The header's harmony profile requires a channel on every assistant "
                                             "message."),
    "E-STREAM-TRUNCATED": Code("error", "The input ends before this message is complete."),
    "W-UNKNOWN-ROLE": Code("warning", "The role is not one the dialect knows; it is kept as written."),
    "W-UNKNOWN-CHANNEL": Code("warning", "The channel is not one the dialect knows; it is kept as written."),
    "W-STRAY-TEXT": Code("warning", "This text stands outside any message."),
    "W-START-IN-BODY": Code("warning", "A start token inside this body ends the message without a stop token."),
    "W-HEADER-BODY-RECOVERED": Code("warning", "The header never reaches <|message|>; its loose text is read as "
                                               "the body."),
    "W-EOS-IN-BODY": Code("warning", "An end-of-sequence token inside this body ends the message."),
    "W-UNTERMINATED-LITERAL": Code("warning", "A literal block has no <|endliteral|>."),
    "W-UNCLOSED-BLOCK": Code("warning", "A thought block is not closed."),
    "W-THINK-UNOPENED": Code("warning", "A </think> with no <think> follows other parts of the turn; the text "
                                        "before it is read as reasoning."),
    "W-UNMATCHED-TOKEN": Code("warning", "A closing token closes no open block; it is kept as text."),
    # JSON and event logs
    "W-JSON-SYNTAX": Code("warning", "This text is not valid JSON; it was not read."),
    "W-JSON-SHAPE": Code("warning", "A JSON value does not have the shape of a message or tool call."),
    "W-JSON-FIELD-TYPE": Code("warning", "A field has the wrong JSON type; it was read as its JSON text."),
    "W-JSON-MISSING-CONTENT": Code("warning", "This message has no content."),
    "W-JSON-CONTENT-PART": Code("info", "A content part has no text to show; it was left out."),
    "W-JSON-MIXED-CALLS": Code("warning", "A message mixes 2.0 'tool_calls' with a 2.2 'tool_call'."),
    "W-JSON-UNKNOWN-PART": Code("warning", "A content part or block of a type the importer does not know is kept "
                                           "as a message of its own, hidden from the default view."),
    "W-JSON-UNKNOWN-ITEM": Code("warning", "An item of a type the importer does not know is kept as a message of "
                                           "its own, hidden from the default view."),
    "W-JSON-UNREAD": Code("info", "Members of a JSON object that no reader of its shape understands are kept as "
                                  "raw JSON in the header's 'unread', shown collapsed in the debug view."),
    "W-JSON-OPAQUE-DATA": Code("info", "Opaque data (a signature, redacted or encrypted reasoning) is kept in the "
                                       "source, never shown as text."),
    "W-MEDIA-REFUSED": Code("warning", "An image is not shown: it is not a PNG, JPEG, GIF or WebP image by its own "
                                       "bytes, also holds another format, is over a size or pixel limit, or cannot "
                                       "be decoded. Its placeholder says which."),
    "W-EVENT-SHAPE": Code("warning", "An event line lacks what its type needs; it was skipped."),
    "W-UNKNOWN-EVENT": Code("info", "An event of unknown type was kept but not read."),
    "W-EVENT-TEXT-MISMATCH": Code("info", "A done event's text differs from the streamed deltas."),
    "W-STREAM-CANCELLED": Code("warning", "The response was cancelled before this message was complete."),
    "W-API-ERROR": Code("warning", "The API answered this request with an error (a batch line's error, a blocked "
                                   "prompt); there is no answer to show."),
    "W-FOLDED-TEXT": Code("info", "The template wrote other text into this turn without marking it (a system "
                                  "prompt folded into the first user turn); it is kept as the turn's text."),
    # Agent sessions
    "W-SESSION-COMPACTED": Code("info", "The agent compacted its context here: the messages before it were replaced "
                                        "by a summary in what the model saw next."),
    "W-SESSION-INTERRUPTED": Code("info", "The user interrupted the agent here."),
    "W-SESSION-FORK": Code("info", "The conversation forks here (a rewind or an edit): the messages of the other "
                                   "branches are kept; the view follows the branch that ends at the last message."),
    # Chat apps' exports
    "W-EXPORT-BRANCH": Code("info", "Another version of the conversation starts here (an edited question or a "
                                    "regenerated answer): the app showed a different branch, so this one is hidden "
                                    "from the default view."),
    "W-EXPORT-PLACEHOLDER": Code("info", "The export wrote a placeholder here for a block it cannot render; it is "
                                         "not the assistant's answer and is left out."),
    "W-AMBIGUOUS-LINE": Code("info", "A line of a plain-text log that its marks and its place read differently; "
                                     "the message says how it was read."),
    "W-SESSION-THREAD": Code("info", "A sub-agent's conversation whose starting call the log does not name."),
    "W-PAIRED-BY-ORDER": Code("info", "The log names no call for these tool results: they are paired with the calls "
                                      "before them in order, which the log implies but does not record."),
    # Tools
    "W-TOOL-DEFINITION": Code("warning", "A tool definition has no function name."),
    "W-MISPLACED-BLOCK": Code("warning", "A tool block stands in a turn whose role does not write it; it is kept "
                                         "as an unclassified message, hidden by default."),
    "E-CALL-SCHEMA": Code("error", "The tool call does not match the call schema or the tool's declared schema."),
    "E-BODY-CONSTRAINT-VIOLATION": Code("error", "The body does not match its <|constrain|> content type."),
    "E-TOOL-TIMEOUT": Code("error", "The tool reported a timeout."),
    "E-TOOL-CANCELLED": Code("error", "The tool call was cancelled."),
    "W-TOOL-ERROR": Code("warning", "The tool reported a failure."),
    # Pairing calls with replies
    "W-DUPLICATE-CALL-ID": Code("warning", "This call_id was already used by an earlier call."),
    "W-ORPHAN-REPLY": Code("warning", "This tool reply answers no call."),
    "W-UNANSWERED-CALL": Code("warning", "This tool call has no reply.", when_expected="info"),
    # Sharing
    "W-SECRET": Code("warning", "A secret (an API key, token, password or private key) was found here; mask or "
                                "remove it before sharing."),
    "W-PERSONAL-DATA": Code("info", "Personal data (an e-mail address, phone number, card, IBAN, national "
                                    "identifier or IP address) was found here; people with the link read a "
                                    "placeholder."),
    "W-REDACTED": Code("info", "The uploader redacted this text; people with the link read a placeholder."),
    "W-SCAN-FAILED": Code("error", "The scan for secrets failed on this input; nothing of it is shown to link "
                                   "holders."),
}


def make_diagnostic(code: str, span: Span, message: str | None = None, message_index: int | None = None, *,
                    expected: bool = False) -> Diagnostic:
    """A diagnostic with its code's severity (the milder one when `expected` and the code has one). An
    unregistered code raises KeyError: register it in CODES first."""
    entry = CODES[code]
    severity = entry.when_expected if expected and entry.when_expected else entry.severity
    return Diagnostic(code, severity, message or entry.summary, span, message_index)


@dataclass(frozen=True, slots=True)
class Note:
    """A diagnostic found about a message long after it was read (the end of a session read a piece at a time:
    a branch left aside, a sub-agent with no call, a call never answered), placed at that message's span, or its
    header's, which whoever holds the message knows."""

    code: str
    text: str
    index: int
    at_header: bool = False
    expected: bool = False

    def at(self, span: Span) -> Diagnostic:
        """The diagnostic, at `span` (the message's, or its header's when `at_header` and it has one)."""
        return make_diagnostic(self.code, span, self.text, self.index, expected=self.expected)
