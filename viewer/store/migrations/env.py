"""Alembic's entry point for every command. `viewer.store.migrate` always hands over an open connection (already
inside its lock and transaction), so there is no URL, no engine and no logging setup here."""
from alembic import context

from viewer.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,  # what autogenerate compares the database with
    # SQLite can alter little in place: autogenerate then writes `batch_alter_table`, which copies the table.
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():  # a no-op: the caller's transaction is already open and it commits
    context.run_migrations()
