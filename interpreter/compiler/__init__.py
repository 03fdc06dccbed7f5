"""Compilation: a checked program becomes, once per player count, tables and generated code.

`game` is the front door (load_game: load, schema, check, then compile per player count).
Imports `interpreter.frontend` (the resolved program it compiles) and `interpreter.runtime`
(the state and helpers the generated code calls); neither imports this package.
"""
