"""The parts of the checker (`checker.check` is the entry point), each a few functions on one `Context`.

`context`: the state of a pass, positions, errors and local names; `vocabulary` and `words`: the
built-in names and the wording of messages; `types`: expression types and `expect`; `resolve`:
`value` and `resolve`, which dispatch to the resolvers of `names`, `calls`, `access` and
`expressions`; `statements`, `simple` and `decisions`: the rules' statements; `params`,
`declarations` and `cards`: what the file declares; `constants` and `recursion`: what is worked
out before the game and calls that never end; `ending` and `display`: end.finish, tiebreaks and
the display options; `stats`: the designer's statistics; `trees`: walks over checked trees.
"""
# Each resolver module registers its resolvers with `resolve` when imported: importing them here
# makes the table complete whichever part of the package is imported first.
from . import access, calls, expressions, names  # noqa: F401
