"""Writing a transcript out: canonical OpenChatML 2.2 text (openchatml.py)."""
from viewer.write.openchatml import to_openchatml

__all__ = ["to_openchatml"]
