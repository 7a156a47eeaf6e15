"""Processing slots shared by every serving process on one database: `processing_slots` holds a row per upload
being parsed and stored at this moment (its slot number, the process holding it, and when that process last
said it was alive), so that PROCESSING_SLOTS bounds the uploads processed at once across gunicorn workers or
several servers, and a slot whose process stopped is taken over (viewer/store/slots.py). Nothing to carry over:
a slot lasts no longer than its upload's processing, and a server started after this revision takes up the
uploads left unfinished from their `processing` rows.

Revision ID: 0016
Revises: 0015
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: Union[str, Sequence[str], None] = "0015"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "processing_slots",
        sa.Column("slot", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("worker", sa.String(128), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("processing_slots")
