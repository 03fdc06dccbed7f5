"""Compilation: a checked program becomes, once per player count, tables and generated code.

`game` is the front door (load_game: load, schema, check, then compile per player count);
`build` compiles one player count: `layout` lays zones, variables and cards out as integer tables,
`codegen` writes expressions as Python source, `fold` works constants out through that code,
`statements` writes decision-free statements as source lines and `flow` lays the rules out as the
flat op list. The result is an `interpreter.runtime.program.Program`. Imports
`interpreter.frontend` (the resolved program it compiles) and `interpreter.runtime` (the state,
helpers and Program the generated code and its result use); neither imports this package.
"""
