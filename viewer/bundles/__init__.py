"""Uploads of several files read as one text: a zip archive of a session or task folder, several files sent at
once (packed into a zip, pack.py), a local folder, and a SQLite database (each table a member of JSON lines).

The files become one text (text.py): a header line naming every member in order, then each member introduced by
a frame line naming its path and length, so that spans, diagnostics, the source panel and search all point into
one text, as for any other upload; the raw upload (the zip, the database) stays stored as it was sent. Reading
an archive (archive.py) or a database (database.py) is bounded and never runs what the file holds. Pure: this
package imports nothing of the viewer but the model.
"""
from viewer.bundles import archive, database
from viewer.bundles.archive import ZIP_MAGIC, is_archive
from viewer.bundles.database import SQLITE_MAGIC, is_database
from viewer.bundles.text import Bundle, Member, is_bundle, member_paths, read_bundle, write_bundle
from viewer.model import Diagnostic


def unpacked(data: bytes) -> tuple[str, list[Diagnostic]]:
    """A zip archive's or a SQLite database's bytes as a bundle text, and what went wrong; never raises."""
    if is_database(data):
        return write_bundle("sqlite", database.entries(data))
    return archive.unpack(data)


__all__ = ["SQLITE_MAGIC", "ZIP_MAGIC", "Bundle", "Member", "is_archive", "is_bundle", "is_database",
           "member_paths", "read_bundle", "unpacked"]
