"""Token counts for what the model saw (`counting`: exact, or none), from a vocabulary rebuilt offline
(`vocabulary`: run as a script by `make setup`, standard library only). Beside the context stage, whose kept
messages and exact text it counts."""
