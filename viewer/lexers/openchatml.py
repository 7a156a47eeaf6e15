"""Pygments lexer for OpenChatML 2.x transcripts.

OpenChatML 2.2 is Harmony's envelope plus a YAML `version:` header, literal blocks, `<<|` escapes and
`key=value` header attributes; our Harmony lexer already reads all of these (as our parser does for both), so
this lexer shares its rules and differs in name, file names and how it recognises a file.
"""
from __future__ import annotations

import re

from viewer.lexers.harmony import HarmonyLexer

# 2.2 §2: the transcript begins with a YAML header whose `version` is 2.x (fenced by `---` or not).
_VERSION_2X = re.compile(r"^version[ \t]*:[ \t]*[\"']?2(?:\.\d+)*[\"']?[ \t]*(?:#.*)?\r?$", re.MULTILINE)


class OpenChatMLLexer(HarmonyLexer):
    """OpenChatML 2.x: a YAML header, then Harmony-style messages."""

    name = "OpenChatML"
    aliases = ["openchatml", "ocml"]
    filenames = ["*.ocml", "*.openchatml"]
    mimetypes = ["text/x-openchatml"]
    url = ""  # the spec has no stable published address

    def analyse_text(text):
        """Sure when a 2.x `version:` header precedes Harmony messages; unsure without the header."""
        if "<|start|>" not in text or "<|message|>" not in text:
            return 0.0
        return 0.95 if _VERSION_2X.search(text, 0, 4096) else 0.3
