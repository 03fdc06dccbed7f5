"""The language front end: a ruleset file becomes a checked, resolved program.

`loader` reads YAML with a `file:line:col` for every value and merges `extends:`; `schema` checks
the document against the JSON Schema; `grammar.lark`, `parser` and `syntax` turn the rules
language into syntax trees; `checker` resolves every name and type into `ir`, the resolved
program, running the parts in `check/` (names, types, statements, decisions, declarations,
display, ...) on one shared context; `lint` warns about rules that can never do anything.
Imports only `interpreter.errors`.
"""
