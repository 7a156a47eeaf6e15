"""Coding agents' session logs, each read into the one message model: Claude Code sessions (claude_code.py),
Codex CLI rollouts and `codex exec --json` streams (codex.py), Cline, Roo Code and Kilo Code task files and Cline
SDK sessions (cline/), pi sessions (pi.py), Aider's chat and LLM histories (aider_chat.py, aider_llm.py), Kimi Code
and Kimi CLI wires (kimi_code.py, kimi_cli.py). The JSON Lines logs are read a line at a time (lines.py), the JSON
arrays an element at a time (arrays.py); their message objects by the JSON package's shape readers where they have
a known API's shape; numbered by session.py."""
from viewer.parse.agents.claude_code import parse_claude_code
from viewer.parse.agents.claude_code_folder import parse_claude_code_files
from viewer.parse.agents.codex import parse_codex
from viewer.parse.agents.codex_folder import parse_codex_files

__all__ = ["parse_claude_code", "parse_claude_code_files", "parse_codex", "parse_codex_files"]
