"""Kilo Code 4.x and 5.x task histories: Roo Code's shape, each task locked to XML or native tool calls (history.py
reads both); the agent and the dialect are Kilo Code's. (Kilo 7.x keeps OpenCode's storage.)"""
from viewer.model import Transcript
from viewer.parse.agents.cline.history import Producer, read_history
from viewer.parse.options import ParseOptions

KILO_CODE = Producer("kilo-code", "Kilo Code")


def parse_kilo_code(text: str, options: ParseOptions) -> Transcript:
    """Read a Kilo Code task's API history. Never raises on user input."""
    return read_history(text, KILO_CODE)
