"""Coding agents' session logs: Claude Code sessions (claude_code.py) and Codex CLI rollouts and `codex exec
--json` streams (codex.py). Both are JSON Lines (lines.py) read with the JSON package's shape readers (an
assistant's Anthropic blocks, a rollout's Responses API items) and numbered by session.py."""
from viewer.parse.agents.claude_code import parse_claude_code
from viewer.parse.agents.claude_code_folder import parse_claude_code_files
from viewer.parse.agents.codex import parse_codex
from viewer.parse.agents.codex_folder import parse_codex_files

__all__ = ["parse_claude_code", "parse_claude_code_files", "parse_codex", "parse_codex_files"]
