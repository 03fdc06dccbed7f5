"""The analysis: intervals, balance metrics and paired comparison over per-game records.

Pure functions over the records `simulate --results` writes and over lists of numbers, using the
standard library only (scipy is only in the tests, to check our t, chi-square and normal functions).
Imports `interpreter.errors` and nothing else of the interpreter; the tools import it.
"""
