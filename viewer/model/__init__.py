"""The one model every dialect parses into: messages and their pieces (`message`, `pieces`), transcripts with their
diagnostics and call pairs (`transcript`); the registry of diagnostic codes (`diagnostics`); line and column
numbers (`lines`); the cyclic collector's pause while many of its objects are made (`collector`). It imports
nothing else of the viewer."""
from viewer.model.diagnostics import CODES, make_diagnostic
from viewer.model.lines import LineIndex
from viewer.model.message import CHANNELS, ENDS, NON_TOOL_RECIPIENTS, ROLES, Message, is_tool_address
from viewer.model.pieces import Media, Meta, Segment, Span, Thread, Usage
from viewer.model.transcript import DATASET_SCHEMA, SCHEMA, SEVERITIES, Diagnostic, Pair, Transcript

__all__ = ["CHANNELS", "CODES", "DATASET_SCHEMA", "ENDS", "NON_TOOL_RECIPIENTS", "ROLES", "SCHEMA", "SEVERITIES",
           "Diagnostic", "LineIndex", "Media", "Message", "Meta", "Pair", "Segment", "Span", "Thread", "Transcript",
           "Usage", "is_tool_address", "make_diagnostic"]
