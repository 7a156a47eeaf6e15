"""Coding agents' session logs: Claude Code sessions (claude_code.py) and Codex CLI rollouts and `codex exec
--json` streams (codex.py). Both are JSON Lines (lines.py) read with the JSON package's shape readers (an
assistant's Anthropic blocks, a rollout's Responses API items) and numbered by session.py."""
from viewer.parse.agents.claude_code import parse_claude_code
from viewer.parse.agents.codex import parse_codex

__all__ = ["parse_claude_code", "parse_codex"]
