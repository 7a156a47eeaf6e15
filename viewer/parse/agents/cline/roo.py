"""Roo Code's task history: Cline's shape with Roo's reasoning blocks, condensing and sub-tasks (history.py reads
them all); the agent and the dialect are Roo Code's."""
from viewer.model import Transcript
from viewer.parse.agents.cline.history import Producer, read_history
from viewer.parse.options import ParseOptions

ROO_CODE = Producer("roo-code", "Roo Code")


def parse_roo_code(text: str, options: ParseOptions) -> Transcript:
    """Read a Roo Code task's API history. Never raises on user input."""
    return read_history(text, ROO_CODE)
