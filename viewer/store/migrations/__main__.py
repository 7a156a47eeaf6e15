"""`python -m viewer.store.migrations revision "what changes"`: write the next revision (see README.md).

Here rather than in `viewer.store.migrate`, which the package imports first: `-m` on it would run a second copy."""
import sys

from viewer.store.migrate import revision

if len(sys.argv) != 3 or sys.argv[1] != "revision":
    sys.exit('usage: python -m viewer.store.migrations revision "what changes"')
revision(sys.argv[2])  # Alembic says which file it wrote
