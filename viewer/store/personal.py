"""What the store keeps of the personal data in each upload: the uploader's choices for link holders (values
released, kinds shown, passages redacted), which every parse of the upload applies, and what the last parse
found, for the manage page. Only the uploader reads either; link holders read the rows masked by them.

How many of each kind are masked is counted with the secrets in `transcripts.secret_kinds`, under keys that start
with `PREFIX` (`Record.personal_kinds` reads them apart).
"""
from __future__ import annotations

from typing import Any, Iterable

from sqlalchemy import and_, delete, func, insert, or_, select
from sqlalchemy.engine import Connection, Engine

from viewer.policy.personal import REDACT, RELEASE, SHOW, Choices, PersonalFinding, Redaction
from viewer.store.schema import personal_choices, personal_findings

FINDINGS_LIMIT = 500
"""Findings the manage page lists."""


class Personal:
    """The store's personal data of each upload (`Store.personal`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.detecting = True
        """Whether uploads are scanned for personal data (the app's PERSONAL_DATA setting)."""

    # ---- the uploader's choices ------------------------------------------------------------------------

    def choices(self, id: str) -> Choices:
        """The choices of upload `id` (none for an upload not stored yet)."""
        shown: set[str] = set()
        released: set[tuple[str, str]] = set()
        redactions: list[Redaction] = []
        with self.engine.connect() as conn:
            for row in conn.execute(select(personal_choices).where(personal_choices.c.transcript_id == id)
                                    .order_by(personal_choices.c.number)):
                if row.choice == SHOW:
                    shown.add(row.kind)
                elif row.choice == RELEASE:
                    released.add((row.kind, row.value))
                elif row.choice == REDACT:
                    redactions.append(Redaction(row.number, row.conversation, row.message_index, row.value))
        return Choices(self.detecting, frozenset(shown), frozenset(released), tuple(redactions))

    def release(self, id: str, kind: str, value: str, released: bool = True) -> None:
        """Let link holders read one value as written (or, with `released` False, mask it again)."""
        self._choose(id, RELEASE, released, kind=kind, value=value)

    def show(self, id: str, kind: str, shown: bool = True) -> None:
        """Let link holders read every value of a kind as written (or mask them again)."""
        self._choose(id, SHOW, shown, kind=kind)

    def redact(self, id: str, conversation: int | None, message_index: int, text: str | None) -> int:
        """Redact a passage of a message (`text`), or the whole message (None), for link holders; its number."""
        with self.engine.begin() as conn:
            return self._add(conn, id, {"choice": REDACT, "conversation": conversation,
                                        "message_index": message_index, "value": text})

    def undo(self, id: str, number: int) -> bool:
        """Undo redaction `number` of upload `id`; whether there was one."""
        with self.engine.begin() as conn:
            return bool(conn.execute(delete(personal_choices).where(
                personal_choices.c.transcript_id == id, personal_choices.c.number == number,
                personal_choices.c.choice == REDACT)).rowcount)

    def copy_choices(self, source: str, target: str) -> bool:
        """Give upload `target` every choice of upload `source` (a revoked link's upload stored again); whether
        there was any."""
        columns = [column for column in personal_choices.c if column.name != "transcript_id"]
        with self.engine.begin() as conn:
            rows = conn.execute(select(*columns).where(personal_choices.c.transcript_id == source)).mappings().all()
            for row in rows:
                conn.execute(insert(personal_choices).values(transcript_id=target, **row))
        return bool(rows)

    def _choose(self, id: str, choice: str, chosen: bool, **what: Any) -> None:
        match = and_(personal_choices.c.transcript_id == id, personal_choices.c.choice == choice,
                     *(personal_choices.c[name] == value for name, value in what.items()))
        with self.engine.begin() as conn:
            conn.execute(delete(personal_choices).where(match))
            if chosen:
                self._add(conn, id, {"choice": choice, **what})

    @staticmethod
    def _add(conn: Connection, id: str, row: dict[str, Any]) -> int:
        number = conn.execute(select(func.coalesce(func.max(personal_choices.c.number), 0) + 1)
                              .where(personal_choices.c.transcript_id == id)).scalar_one()
        conn.execute(insert(personal_choices).values(transcript_id=id, number=number, **row))
        return int(number)

    # ---- what the last parse found -----------------------------------------------------------------------

    def keep_findings(self, id: str, found: Iterable[PersonalFinding]) -> None:
        """Replace the findings of upload `id` by those of its latest parse."""
        with self.engine.begin() as conn:
            conn.execute(delete(personal_findings).where(personal_findings.c.transcript_id == id))
            rows = [{"transcript_id": id, "number": number, "kind": item.kind, "value": item.value,
                     "state": item.state, "places": item.places, "conversation": item.conversation,
                     "message_index": item.message_index, "line": item.line, "col": item.column}
                    for number, item in enumerate(found, start=1)]
            if rows:
                conn.execute(insert(personal_findings), rows)

    def findings(self, id: str, limit: int = FINDINGS_LIMIT) -> list[PersonalFinding]:
        """The findings of upload `id`, in the order of the upload."""
        query = (select(personal_findings).where(personal_findings.c.transcript_id == id)
                 .order_by(personal_findings.c.number).limit(limit))
        with self.engine.connect() as conn:
            return [PersonalFinding(row.kind, row.value, row.state, row.places, row.conversation, row.message_index,
                                    row.line, row.col, row.number) for row in conn.execute(query)]

    def finding(self, id: str, number: int) -> PersonalFinding | None:
        """Finding `number` of upload `id`."""
        found = [item for item in self.findings(id) if item.number == number]
        return found[0] if found else None


def forget(conn: Connection, id: str) -> None:
    """Delete the choices and findings of upload `id`."""
    for table in (personal_choices, personal_findings):
        conn.execute(delete(table).where(or_(table.c.transcript_id == id)))
