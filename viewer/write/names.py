"""Tool addresses as the function names JSON and ChatML calls write: readers make a name an address again with
`qualified_tool_name` (`get_weather` is `functions.get_weather`, a dotted name is kept), so the writers choose
the name that comes back as the same address."""
from __future__ import annotations

from viewer.parse.common import FUNCTIONS, qualified_tool_name


def function_name(address: str) -> str | None:
    """The name to write for a call to `address`, or None when no name reads back as it (an address outside
    every namespace, like the Responses API's `web_search`, reads back as `functions.web_search`)."""
    for name in (address.removeprefix(FUNCTIONS), address):
        if name and qualified_tool_name(name) == address:
            return name
    return None
