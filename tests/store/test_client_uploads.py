"""The uploads each client is sending at this moment (viewer/store/counters.py `ClientUploads`): however many
requests of one client ask at the same instant, from several processes' connections, no more than the limit
are counted. On SQLite and PostgreSQL."""
from __future__ import annotations

import threading

from viewer.store import Store

NEVER_STOPPED = lambda worker: False  # noqa: E731 - every holder alive


def test_takers_racing_for_a_clients_uploads_never_pass_the_limit(database_url):
    stores = [Store(database_url) for _ in range(6)]  # a store each: connections as separate as processes'
    try:
        for round in range(8):
            start = threading.Barrier(len(stores))
            tokens: list[str | None] = []

            def take(store: Store) -> None:
                start.wait()
                tokens.append(store.client_uploads.take(f"client-{round}", "worker", 3, NEVER_STOPPED))
            threads = [threading.Thread(target=take, args=(store,)) for store in stores]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            taken = [token for token in tokens if token is not None]
            assert len(taken) == 3 and stores[0].client_uploads.count(f"client-{round}") == 3, (round, tokens)
    finally:
        for store in stores:
            store.engine.dispose()
