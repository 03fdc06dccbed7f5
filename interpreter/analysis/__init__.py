"""Analysis of per-game records: pure functions over plain data (imports only interpreter.errors)."""
