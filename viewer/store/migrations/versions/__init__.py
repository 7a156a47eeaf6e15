"""The revisions, oldest first by number. A package so that setuptools ships it with the code."""
