"""The run-time: a game in progress as plain data, and what a caller does with a program.

`engine` holds the state (zones of card ids, variables, the program counter and its return
stack), the run loop and the card moves the compiled code calls; `decisions` the legal moves of a
choice and their canonical texts; `events` who saw what; `rng` the seeded random numbers kept in
the state; `runtime` the program's public face (new_state, legal_moves, apply, result). Imports
only `interpreter.errors`: it knows nothing of rules files or of how the code was compiled.
"""
