"""Hand-written implementations of the shipped games: the yardsticks of the speed benchmark."""
