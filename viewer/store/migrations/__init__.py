"""Alembic's migration scripts for the store's schema (run by `viewer.store.migrate`; see README.md)."""
