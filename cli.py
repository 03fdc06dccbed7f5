"""`python cli.py …`: the same program as the installed `cardrules` script."""
from interpreter.tools.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
