"""RESEARCH ONLY: omniscient players that CHEAT, to bound what an honest Luna could win (issue 12).

**Not a bot.** Nothing here is in :data:`pifecacheta.bots.BOTS` nor in the arena's
``POLICY_NAMES``, and the server cannot seat it: these players read the hidden
:class:`~pifecacheta.rules.match.Match` (every hand, the stock order) and, for the full oracle,
copies of the opponents' random streams, which an honest player (seed 000 line 70: the robots
see only their own hand and the table) never sees. They live under ``bench/`` and are played
only by :mod:`bench_oracle` through :func:`play_round_cheating`, a copy of the arena's loop
(:func:`pifecacheta.bots.arena.play_round`: the same deal, the same per-seat random streams
``bots:{seed}:{seat}``, the same NA BOA polling) that hands the cheating seat the match.

The players (what each knows, how it searches):

- :class:`KnownFuture` (``kf``): knows the stock order and every hand; no search. On its turn it
  compares taking the top discard with drawing the known top stock card and, for each 10-card
  hand, every allowed throw by the key (feeds, d, -progress, near): ``feeds`` 1 when an opponent
  would go out at once on the throw (Pife: anyone, line 60; Cacheta: an announced seat, or the
  next seat taking it, lines 54 and 64), ``d`` the number of its own future draws after which 9
  of the kept cards and the known draws fit in melds (its draws read from the stock every
  ``n`` cards, ``n`` the seats in play, as if nobody took from the pile; capped at ``HORIZON``),
  ``progress`` the sum over those future draws of the cards in melds. Goes out whenever the
  engine allows; NA BOA whenever allowed.
- :class:`Oracle` (``oracle``): knows everything, the opponents' policies and their random
  streams too, so it can replay the future **exactly**. On each turn it lists every (draw or
  take) x (throw or go-out) choice, orders them by :class:`KnownFuture`'s key and plays out the
  ``width`` best to the end of the round on copies of the match and of every seat's random
  stream, the opponents playing their own policies and itself :class:`KnownFuture` from the
  next turn on; it plays the choice whose exact future is best (it goes out, soonest; else the
  opponent's go-out comes latest; ties: the key's order). One-step policy improvement over
  ``kf`` on the exact model: an approximation of omniscient play from below (it does not
  search its own later turns), so its win rate is a *lower* estimate of the omniscient
  optimum.
- :class:`KnownStock` (``kf_stock``): ``kf`` without the opponents' hands (``feeds`` always 0).
- :class:`SafeBase` (``base_safe``): Luna's base policy that reads the opponents' hands only to
  never throw a card that lets one go out at once: the size of the defence lever.
- :class:`PerfectSamples` (``luna_hands`` / ``luna_world``): the honest search Luna
  (:mod:`pifecacheta.bots.luna`) whose samples are the truth: the opponents' true hands with
  the true unseen stock shuffled (``luna_hands``: perfect inference of the hands, not of the
  stock), or the true hands and the true stock order (``luna_world``: every sample is the
  real deal). What perfect opponent modelling would give her search as it is.

The honest research variants measured beside them (own view only, but not bots either) are in
:mod:`oracle_variants`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pifecacheta.bots import luna
from pifecacheta.bots.arena import _rngs
from pifecacheta.bots.common import Policy, allowed_discards, go_out_plan, off_turn_action, settled_draw
from pifecacheta.bots.hand import HandIndex
from pifecacheta.bots.sampling import Determinization
from pifecacheta.bots.strategy import Table, _Scorer
from pifecacheta.rules.actions import Action, AnnounceOneAway, Discard, Draw, GoOut, TakeDiscard
from pifecacheta.rules.cards import Card
from pifecacheta.rules.config import Mode, Rules
from pifecacheta.rules.match import Match, Phase, apply, new_match
from pifecacheta.rules.one_away import completing_faces
from pifecacheta.rules.turns import active_seats, wilds_of
from pifecacheta.rules.views import player_view

__all__ = [
    "Cheater",
    "KnownFuture",
    "KnownStock",
    "Oracle",
    "PerfectSamples",
    "SafeBase",
    "cheater",
    "play_round_cheating",
]

#: future draws ``d`` looks at (beyond: ``HORIZON + 1``)
HORIZON = 8


class Cheater:
    """A player that reads the hidden match: ``act(match, seat, rngs, poll)``."""

    name = "cheater"

    def act(self, match: Match, seat: int, rngs: Sequence[random.Random], poll: set[int]) -> Action | None:
        raise NotImplementedError


Seat = Policy | Cheater


def _call(p: Seat, match: Match, seat: int, rngs: Sequence[random.Random], poll: set[int]) -> Action | None:
    if isinstance(p, Cheater):
        return p.act(match, seat, rngs, poll)
    return p(player_view(match, seat), rngs[seat])


def run(
    match: Match,
    seats: Sequence[Seat],
    rngs: Sequence[random.Random],
    poll: set[int],
    max_actions: int,
    *,
    script: list[Action] | None = None,
    scripted: int = -1,
) -> tuple[Match, int]:
    """The arena's loop (:func:`pifecacheta.bots.arena._play_until_round_over`, line for line),
    ``poll`` passed in and out; seat ``scripted`` plays the actions of ``script`` first."""
    assert match.round is not None
    n = 0
    while match.round is not None and match.round.phase in (Phase.DRAW, Phase.DISCARD) and n < max_actions:
        if match.rules.has_wild:
            for s in sorted(poll - match.round.announced):
                v = player_view(match, s)
                if v.can_announce and s != match.round.turn:
                    a = _call(seats[s], match, s, rngs, poll)
                    if isinstance(a, AnnounceOneAway):
                        match = apply(match, s, a)
                        n += 1
            poll.clear()
        assert match.round is not None
        s = match.round.turn
        move = script.pop(0) if s == scripted and script else _call(seats[s], match, s, rngs, poll)
        if move is None:
            raise RuntimeError(f"seat {s} returned None on its turn")
        match = apply(match, s, move)
        n += 1
        if isinstance(move, Discard):
            poll.add(s)
    return match, n


def play_round_cheating(
    rules: Rules, seats: Sequence[Seat], *, seed: int, max_actions: int = 3000
) -> int | None:
    """Round 1 of ``new_match(rules, len(seats), seed=seed)`` played as the arena plays it;
    the winner seat (None: cap)."""
    match = new_match(rules, len(seats), seed=seed)
    match, _ = run(match, seats, _rngs(seed, len(seats)), set(range(len(seats))), max_actions)
    assert match.round is not None
    return None if match.round.result is None else match.round.result.winner


# --- the known-future key -----------------------------------------------------------------


def _copy(r: random.Random) -> random.Random:
    c = random.Random()
    c.setstate(r.getstate())
    return c


def _order(match: Match, seat: int) -> list[int]:
    """Active seats in play order after ``seat`` (``seat`` last)."""
    act = active_seats(match)
    return [t for t in ((seat + i) % match.seats for i in range(1, match.seats + 1)) if t in act]


def _futures(match: Match, seat: int, took: bool) -> list[Card]:
    """The seat's next draws from the stock after this turn, as if nobody takes from the pile."""
    r = match.round
    assert r is not None
    n = len(_order(match, seat))
    top = len(r.stock) - 1 - (0 if took else 1)  # drawing now takes stock[-1]
    first = top - (n - 1)
    return [r.stock[i] for i in range(first, -1, -n)][:HORIZON]


def _feed_faces(match: Match, seat: int) -> frozenset[tuple[int, object]]:
    """Faces whose throw by ``seat`` lets an opponent go out at once: Pife anyone (louca, line
    60); Cacheta an announced seat (line 64) or the next seat, which takes it (line 54)."""
    r = match.round
    assert r is not None
    order = _order(match, seat)[:-1]
    wilds = wilds_of(match)
    out: set[tuple[int, object]] = set()
    for i, s in enumerate(order):
        if match.rules.mode is not Mode.PIFE and s not in r.announced and i != 0:
            continue
        h = r.hands[s]
        fs = completing_faces(
            h, wilds=wilds, plain=r.plain & frozenset(h), from_discard=True, rules=match.rules
        )
        out.update((f.rank, f.suit) for f in fs)
    return frozenset(out)


Key = tuple[int, int, int, int]


def _keys(
    match: Match, seat: int, hand10: tuple[Card, ...], took: Card | None, feeds: frozenset[tuple[int, object]]
) -> list[tuple[Key, Card]]:
    """(key, card) for every allowed throw of ``hand10`` (the taken card's face excluded), the
    key as in the module docstring (smaller is better)."""
    r = match.round
    assert r is not None
    futs = _futures(match, seat, took is not None)
    wilds = wilds_of(match)
    plain = (r.plain & frozenset(hand10)) | (
        {took} if took is not None and took.face in wilds else frozenset()
    )
    pool = hand10 + tuple(futs)
    idx = HandIndex(pool, wilds=wilds, plain=plain, rules=match.rules)
    hand_mask = (1 << len(hand10)) - 1
    near = [0] * len(hand10)
    for m in idx.near:
        if m & hand_mask == m:
            for i in range(len(hand10)):
                near[i] += m >> i & 1
    out: list[tuple[Key, Card]] = []
    for i, c in enumerate(hand10):
        if took is not None and c.face == took.face:
            continue
        mask = hand_mask ^ (1 << i)
        d, prog = HORIZON + 1, 0
        for t in range(1, len(futs) + 1):
            mask |= 1 << (len(hand10) + t - 1)
            cov = idx.max_cover(mask)
            prog += min(cov, 9)
            if cov >= 9 and d > HORIZON:
                d = t
        fed = int((c.rank, c.suit) in feeds)
        out.append(((fed, d, -prog, near[i]), c))
    out.sort(key=lambda kc: kc[0])
    return out


class KnownFuture(Cheater):
    """``kf`` (module docstring). ``hands`` False: the opponents' hands are not read."""

    name = "kf"

    def __init__(self, *, hands: bool = True) -> None:
        self.hands = hands

    def _feeds(self, match: Match, seat: int) -> frozenset[tuple[int, object]]:
        return _feed_faces(match, seat) if self.hands else frozenset()

    def options(self, match: Match, seat: int) -> list[tuple[Key, list[Action]]]:
        """Every choice of this DRAW turn, best first: ([first action, throw or GoOut], key);
        a go-out has the key (0, 0, 0, 0)."""
        view = player_view(match, seat)
        firsts: list[Action] = [Draw()]
        settled = settled_draw(view)
        if settled is None:
            firsts.append(TakeDiscard())
        elif isinstance(settled, TakeDiscard):
            firsts = [settled]
        feeds = self._feeds(match, seat)
        out: list[tuple[Key, list[Action]]] = []
        for a in firsts:
            m2 = apply(match, seat, a)
            v2 = player_view(m2, seat)
            if go_out_plan(v2) is not None:
                out.append(((0, 0, 0, 0), [a, GoOut()]))
                continue
            if m2.rules.discard_only_to_go_out and isinstance(a, TakeDiscard):
                continue
            took = v2.taken
            for k, c in _keys(m2, seat, v2.hand, took, feeds):
                out.append((k, [a, Discard(c)]))
        out.sort(key=lambda ka: (ka[0], isinstance(ka[1][0], TakeDiscard)))
        return out

    def act(self, match: Match, seat: int, rngs: Sequence[random.Random], poll: set[int]) -> Action | None:
        r = match.round
        assert r is not None
        if r.turn != seat or r.phase not in (Phase.DRAW, Phase.DISCARD):
            return off_turn_action(player_view(match, seat), announce=True)
        view = player_view(match, seat)
        if view.can_announce:
            return AnnounceOneAway()
        if r.phase is Phase.DRAW:
            return self.options(match, seat)[0][1][0]
        if go_out_plan(view) is not None:
            return GoOut()
        keys = _keys(match, seat, view.hand, view.taken, self._feeds(match, seat))
        return Discard(keys[0][1])


class KnownStock(KnownFuture):
    """``kf_stock``: the stock order but not the opponents' hands."""

    name = "kf_stock"

    def __init__(self) -> None:
        super().__init__(hands=False)


def _score(winner: int | None, seat: int, n: int) -> int:
    """A future's worth to ``seat``: it goes out (sooner is better), else later is better."""
    if winner is None:
        return 0
    return 100000 - n if winner == seat else -100000 + n


class Oracle(Cheater):
    """``oracle`` (module docstring): the ``width`` best choices of :class:`KnownFuture`, each
    played out exactly to the end of the round (at most ``cap`` actions)."""

    name = "oracle"

    def __init__(self, opponent: Policy, *, width: int = 6, cap: int = 400) -> None:
        self.opponent = opponent
        self.width, self.cap = width, cap
        self.kf = KnownFuture()
        self._plan: list[Action] = []
        self.rollouts = 0

    def _seats(self, match: Match, seat: int) -> list[Seat]:
        return [self.kf if s == seat else self.opponent for s in range(match.seats)]

    def act(self, match: Match, seat: int, rngs: Sequence[random.Random], poll: set[int]) -> Action | None:
        r = match.round
        assert r is not None
        if r.turn != seat or r.phase not in (Phase.DRAW, Phase.DISCARD):
            return off_turn_action(player_view(match, seat), announce=True)
        view = player_view(match, seat)
        if view.can_announce:
            return AnnounceOneAway()
        if r.phase is Phase.DISCARD:
            if go_out_plan(view) is not None:
                return GoOut()
            if self._plan:
                return self._plan.pop(0)
            return self.kf.act(match, seat, rngs, poll)
        opts = self.kf.options(match, seat)
        if opts[0][1][1] == GoOut():
            self._plan = opts[0][1][1:]
            return opts[0][1][0]
        seats = self._seats(match, seat)
        best: tuple[int, int] | None = None
        choice = opts[0][1]
        for rank, (_, acts) in enumerate(opts[: self.width]):
            copies = [_copy(x) for x in rngs]
            end, n = run(match, seats, copies, set(poll), self.cap, script=list(acts), scripted=seat)
            self.rollouts += 1
            assert end.round is not None
            w = None if end.round.result is None else end.round.result.winner
            sc = (_score(w, seat, n), -rank)
            if best is None or sc > best:
                best, choice = sc, acts
        self._plan = list(choice[1:])
        return choice[0]


class _TrueSampler:
    """Luna's sampler replaced by the truth (:class:`PerfectSamples`)."""

    def __init__(self, match: Match, seat: int, order: bool) -> None:
        self.match, self.seat, self.order = match, seat, order

    def sample(self, rng: random.Random) -> Determinization:
        r = self.match.round
        assert r is not None
        stock = list(r.stock)
        if not self.order:
            rng.shuffle(stock)
        return Determinization(tuple(r.hands), tuple(stock))


class PerfectSamples(Cheater):
    """The search Luna with true samples (module docstring): ``order`` True also the stock order."""

    def __init__(self, *, order: bool) -> None:
        self.order = order
        self.name = "luna_world" if order else "luna_hands"

    def act(self, match: Match, seat: int, rngs: Sequence[random.Random], poll: set[int]) -> Action | None:
        real = luna.Sampler  # type: ignore[attr-defined]
        luna.Sampler = lambda view: _TrueSampler(match, seat, self.order)  # type: ignore[attr-defined,assignment,return-value]
        try:
            return luna.choose_action(player_view(match, seat), rng=rngs[seat])
        finally:
            luna.Sampler = real  # type: ignore[attr-defined]


def cheater(name: str, opponent: Policy) -> Cheater:
    """The player ``name``: "kf", "kf_stock", "oracle", "oracle<width>", "luna_hands",
    "luna_world", "base_safe", "base_safe_any", or one of :mod:`oracle_variants` ("pimc...",
    "safelist", "base_d<defence>", "feed<n>_<delta>"); ``opponent`` is the policy of every other
    seat (the oracle replays it).

    Raises:
        KeyError: unknown name.
    """
    if name == "kf":
        return KnownFuture()
    if name == "kf_stock":
        return KnownStock()
    if name.startswith("oracle"):
        width = int(name[6:] or 6)
        return Oracle(opponent, width=width)
    if name.startswith(("pimc", "safelist", "base_d", "feed")):
        import oracle_variants  # the honest research variants (they import this module)

        return oracle_variants.variant(name)
    if name in ("base_safe", "base_safe_any"):
        return SafeBase(any_cover=name == "base_safe_any")
    if name in ("luna_hands", "luna_world"):
        return PerfectSamples(order=name == "luna_world")
    raise KeyError(name)


class SafeBase(Cheater):
    """``base_safe`` / ``base_safe_any``: Luna's base policy (:func:`pifecacheta.bots.luna.base_action`)
    that reads the opponents' hands only to never throw a card that lets one go out at once
    (:func:`_feed_faces`): the base's throw unless it feeds, else the best non-feeding throw among
    those that keep the most cards in melds (``any_cover`` True: among all, by cover then value).
    The size of the defence lever: what perfect knowledge of who is one away, and on what, is worth
    to her base."""

    def __init__(self, *, any_cover: bool) -> None:
        self.any_cover = any_cover
        self.name = "base_safe_any" if any_cover else "base_safe"

    def act(self, match: Match, seat: int, rngs: Sequence[random.Random], poll: set[int]) -> Action | None:
        view = player_view(match, seat)
        a = luna.base_action(view, rng=rngs[seat])
        if not isinstance(a, Discard):
            return a
        feeds = _feed_faces(match, seat)
        if (a.card.rank, a.card.suit) not in feeds:
            return a
        style = luna._style(view)
        idx = HandIndex.of(view.hand, wilds=view.wilds, plain=view.plain, rules=view.rules)
        allowed = set(allowed_discards(view))
        cand = [i for i, c in enumerate(idx.cards) if c in allowed]
        cover = {i: idx.max_cover(idx.full ^ (1 << i)) for i in cand}
        if not self.any_cover:
            top = max(cover.values())
            cand = [i for i in cand if cover[i] == top]
        scorer = _Scorer(idx, Table(view, style), style)
        safe = [i for i in cand if (idx.cards[i].rank, idx.cards[i].suit) not in feeds]
        if not safe:
            return a
        best = max(safe, key=lambda i: (cover[i], scorer.value(idx.full ^ (1 << i)), -i))
        return Discard(idx.cards[best])
