"""A package's face that imports each of its names from its module when first read (PEP 562 `__getattr__`), so
that importing the package costs nothing until a name is used: the store's and the ingest's faces, whose modules
bring SQLAlchemy and Alembic, and the JSON reader's, whose modules are every JSON shape's reader, none of which
the command line's `render` of a small Harmony file needs. It lives with the model, as the collector does,
because every stage may read the model."""
from __future__ import annotations

from importlib import import_module
from typing import Any


def attribute(package: dict[str, Any], module_of: dict[str, str], name: str) -> object:
    """Name `name` of the package whose globals are `package`: from its module (`module_of`), or one of the
    package's modules (as when the face imported every module), kept in the package once read."""
    package_name = package["__name__"]
    if name in module_of:
        value = getattr(import_module(f"{package_name}.{module_of[name]}"), name)
    elif not name.startswith("__") and name.isidentifier():
        try:
            value = import_module(f"{package_name}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{package_name}.{name}":
                raise
            raise AttributeError(f"module {package_name!r} has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module {package_name!r} has no attribute {name!r}")
    package[name] = value
    return value
