"""Build a position from notation: hands written as strings, the rest of the deck in the stock."""

from __future__ import annotations

from dataclasses import replace

from pifecacheta.rules import Card, Match, Phase, Rules, full_deck, new_match, parse_hand


def position(
    rules: Rules,
    hands: list[str],
    *,
    turn: int,
    phase: Phase = Phase.DRAW,
    pile: str = "",
    pile_by: list[int] | None = None,
    vira: str | None = None,
    announced: frozenset[int] = frozenset(),
    picked_up: list[str] | None = None,
    stock_top: str = "",
) -> Match:
    """A match whose round holds exactly these hands (notation), pile (bottom first) and vira.

    A face already used gets the other deck's card; every other card is in the stock
    (``stock_top`` cards on top, the first listed drawn last).
    ``picked_up[s]`` must be cards that are in hand ``s``."""
    m = new_match(rules, len(hands), seed=0)
    used: set[Card] = set()

    def cards(text: str) -> tuple[Card, ...]:
        out = []
        for c in parse_hand(text):
            if c in used:
                c = c.twin
            assert c not in used, f"more than two copies of {c.code}"
            used.add(c)
            out.append(c)
        return tuple(out)

    hs = [cards(h) for h in hands]
    p = cards(pile)
    v = cards(vira)[0] if vira else None
    top = cards(stock_top)
    stock = tuple(c for c in full_deck() if c not in used) + tuple(reversed(top))
    picked: tuple[tuple[Card, ...], ...] = ((),) * len(hands)
    if picked_up:
        picked = tuple(
            tuple(c if c in hs[s] else c.twin for c in parse_hand(x)) for s, x in enumerate(picked_up)
        )
    assert m.round is not None
    r = replace(
        m.round,
        hands=tuple(hs),
        stock=stock,
        discard_pile=p,
        discarded_by=tuple(pile_by) if pile_by is not None else tuple((turn - 1) % len(hands) for _ in p),
        vira=v,
        turn=turn,
        phase=phase,
        announced=announced,
        picked_up=picked,
    )
    return replace(m, round=r)
