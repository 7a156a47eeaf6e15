"""OpenChatML transcript viewer: parse any dialect into one model, render it safely, share it."""
from viewer.parse import parse

__all__ = ["parse"]
