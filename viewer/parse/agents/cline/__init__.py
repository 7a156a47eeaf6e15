"""Cline and its forks Roo Code and Kilo Code: a task folder's `api_conversation_history.json` (history.py; each
agent a dialect of its own, read alike), its `ui_messages.json` (ui_messages.py), and the Cline SDK's sessions
(sdk.py). A task's metadata files (`task_metadata.json`, `history_item.json`) hold no conversation: they are
facts for a task folder read whole."""
from viewer.parse.agents.cline.history import Producer, read_history
from viewer.parse.agents.cline.kilo import parse_kilo_code
from viewer.parse.agents.cline.roo import parse_roo_code
from viewer.parse.options import ParseOptions
from viewer.model import Transcript

CLINE = Producer("cline", "Cline")


def parse_cline(text: str, options: ParseOptions) -> Transcript:
    """Read a Cline task's API history. Never raises on user input."""
    return read_history(text, CLINE)


__all__ = ["parse_cline", "parse_kilo_code", "parse_roo_code"]
