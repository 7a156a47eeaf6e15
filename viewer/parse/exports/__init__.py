"""The chat apps' data exports: ChatGPT's and Claude.ai's `conversations.json`. Each conversation of an export is
a conversation of a dataset (its title and date in its header), a tree whose branches (edits, regenerations)
are all kept: the one the app showed is followed, the others are aside (viewer/model/branches.py)."""
from __future__ import annotations

from viewer.parse.exports.chatgpt import parse_chatgpt
from viewer.parse.exports.claude_ai import parse_claude_ai

__all__ = ["parse_chatgpt", "parse_claude_ai"]
