"""Pygments lexers for the transcript formats, registered as `harmony`, `openchatml` and `chatml` through the
`pygments.lexers` entry point (pyproject.toml), so `pygmentize -l harmony FILE` works once installed."""
from viewer.lexers.chatml import ChatMLLexer
from viewer.lexers.harmony import HarmonyLexer
from viewer.lexers.openchatml import OpenChatMLLexer

__all__ = ["ChatMLLexer", "HarmonyLexer", "OpenChatMLLexer"]
