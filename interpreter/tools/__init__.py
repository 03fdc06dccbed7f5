"""The tools on top: records and replay, batch simulation, play in the terminal, the command line.

They may import every other package; nothing imports them.
"""
