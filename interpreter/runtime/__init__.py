"""The run-time: a game in progress as plain data, and what a caller does with a compiled program.

`program` holds the compiled program (the layout's tables, the op list, decisions, scoring) and its
public face (new_state, legal_moves, apply, play, score, result); `engine` the state (zones of card
ids, variables, the program counter and its return stack), the run loop and the card moves the
generated code calls; `helpers` the small functions and ops it calls besides; `decisions` the legal
moves of a choice and their canonical texts; `simultaneous` the choice every seat of a list makes
unseen by the others (`each:`); `events` who saw what; `rng` the seeded random numbers kept in the
state. Imports only `interpreter.errors`: it knows nothing of rules files or of how the
code was compiled.
"""
