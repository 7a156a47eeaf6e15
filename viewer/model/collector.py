"""The cyclic garbage collector paused while many long-lived objects are made: a parse, a policy projection,
the rows stored from it, or a batch of a streamed export. It lives with the model because every stage that
makes or reads many model objects uses it."""
from __future__ import annotations

import gc
import threading


class _CollectorPause:
    """One pause of the cyclic garbage collector shared by every parse that overlaps it.

    A long transcript makes hundreds of thousands of small objects that all live on and hold no cycles; the
    collector would walk them again and again, full collections taking a good share of a big parse.

    The collector is process-wide, so the pause is too: while a parse runs, other threads' cyclic garbage
    waits to be freed (reference counting still frees everything else at once), which changes no result.
    What must not happen is one thread's parse re-enabling the collector under another's, or enabling a
    collector that was off before: the first parse in records whether it was on, the last one out restores
    that."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active = 0
        self._was_enabled = False

    # A class rather than a @contextmanager generator: resuming the generator after `gc.enable()` allocates,
    # which would run the collection of everything the parse made inside the parse (it runs at the caller's
    # next allocation either way).
    def __enter__(self) -> None:
        with self._lock:
            if self._active == 0:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._active += 1

    def __exit__(self, *exception: object) -> None:
        with self._lock:
            self._active -= 1
            if self._active == 0 and self._was_enabled:
                gc.enable()


collector_paused = _CollectorPause()
"""`with collector_paused: …` runs a parse with the cyclic collector paused (see `_CollectorPause`)."""
