"""Pygments lexers for the transcript formats, registered as `harmony`, `openchatml` and `chatml` through the
`pygments.lexers` entry point (pyproject.toml), so `pygmentize -l harmony FILE` works once installed."""
from viewer.lexers.chatml import ChatMLLexer
from viewer.lexers.harmony import HarmonyLexer
from viewer.lexers.openchatml import OpenChatMLLexer

__all__ = ["SOURCE_LEXERS", "ChatMLLexer", "HarmonyLexer", "OpenChatMLLexer"]

SOURCE_LEXERS = {"harmony": "harmony", "openchatml": "openchatml", "chatml": "chatml", "json": "json",
                 "events": "json", "claude-code": "json", "codex": "json"}
"""The lexer that highlights a message's exact source in the debug view, by the dialect it was parsed as."""
