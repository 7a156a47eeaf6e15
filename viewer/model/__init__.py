"""The one model every dialect parses into: messages and their pieces (`message`, `pieces`), transcripts with their
diagnostics and call pairs (`transcript`); the registry of diagnostic codes (`diagnostics`); line and column
numbers (`lines`); the cyclic collector's pause while many of its objects are made (`collector`); the words every
stage shares, typed once: roles, channels, ends, views and show-as values (`words`). It imports nothing else of
the viewer."""
from viewer.model.diagnostics import CODES, Note, make_diagnostic
from viewer.model.lines import LineIndex
from viewer.model.message import NON_TOOL_RECIPIENTS, Message, is_tool_address
from viewer.model.pieces import Media, Meta, Segment, Span, Thread, Usage
from viewer.model.transcript import DATASET_SCHEMA, SCHEMA, SEVERITIES, Diagnostic, Pair, Transcript
from viewer.model.words import (CHANNELS, DEBUG, DEFAULT, ENDS, PROMPT_ROLES, ROLES, SHOW_AS, VIEWS, Channel, End, Role,
                                ShowAs, View, is_show_as, is_view)

__all__ = ["CHANNELS", "CODES", "DATASET_SCHEMA", "DEBUG", "DEFAULT", "ENDS", "NON_TOOL_RECIPIENTS", "PROMPT_ROLES",
           "ROLES", "SCHEMA", "SEVERITIES", "SHOW_AS", "VIEWS", "Channel", "Diagnostic", "End", "LineIndex", "Media",
           "Message", "Meta", "Note", "Pair", "Role", "Segment", "ShowAs", "Span", "Thread", "Transcript", "Usage", "View",
           "is_show_as", "is_tool_address", "is_view", "make_diagnostic"]
