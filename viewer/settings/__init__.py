"""The app's settings: each declared once as data (`declared`), read in layers from a file, the environment and
the caller (`layers`), and where the files besides code are (`folders`), which some defaults name. A leaf: the web
app, the command line and the exports read it, and it imports nothing else of the viewer."""
from viewer.settings.declared import LONG_BODY, SECRET_SETTINGS, SETTINGS, Setting, database_url, defaults
from viewer.settings.layers import ConfigError, Layered, load, shown

__all__ = ["LONG_BODY", "SECRET_SETTINGS", "SETTINGS", "ConfigError", "Layered", "Setting", "database_url",
           "defaults", "load", "shown"]
