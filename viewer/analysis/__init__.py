"""What is known once every message is parsed, whatever the dialect: checks (constraints, required channels,
call schemas, tool errors) and the pairing of tool calls with their replies."""
from viewer.analysis.checks import check
from viewer.analysis.pairing import BY_NAME, BY_ORDER, pair_calls

__all__ = ["BY_NAME", "BY_ORDER", "check", "pair_calls"]
