"""Words for the table screen: counts of cards, plurals."""
from __future__ import annotations


def counts_text(names: list, counts, unknown: int = 0) -> str:
    """'2×red:1, 1×blue:2' (type order), with '?×n' for n unknown cards."""
    parts = [f"{n}×{names[t]}" for t, n in sorted(dict(counts).items()) if n > 0]
    if unknown:
        parts.append(f"?×{unknown}")
    return ", ".join(parts) or "—"


def plural(n: int, word: str = "card") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
