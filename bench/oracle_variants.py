"""RESEARCH ONLY: honest variants of Luna measured beside the cheating players of :mod:`oracle`
(issue 12). Each reads only its own :class:`~pifecacheta.rules.views.PlayerView` (the cheaters'
interface hands them the match, and they build the view from it and nothing else), but none is
a bot: they are experiments, kept to repeat the figures of ``bench/README.md``, played by
``bench_oracle.py`` only.

- :class:`Rollouts` (``pimc`` / ``pimc_hands``): determinized search with whole-round rollouts
  by the engine itself (too slow for a bot: about 50 s per round on this machine);
- :class:`SampledSafe` (``feed<n>_<delta>``): the base policy avoiding throws that feed someone
  in Luna's samples;
- :class:`BaseVariant` (``base_d<defence>``): the base policy with v1's danger term as a tie-break;
- :class:`SafeList` (``safelist``): the base policy preferring throws the pile shows are safe.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from oracle import Cheater, Seat, _copy, run

from pifecacheta.bots import luna
from pifecacheta.bots.common import allowed_discards, go_out_plan, settled_draw
from pifecacheta.bots.hand import HandIndex
from pifecacheta.bots.strategy import Table, _Scorer
from pifecacheta.rules.actions import Action, Discard, Draw, TakeDiscard
from pifecacheta.rules.cards import Card
from pifecacheta.rules.config import Mode
from pifecacheta.rules.match import Match, Phase
from pifecacheta.rules.views import PlayerView, player_view

__all__ = ["BaseVariant", "Rollouts", "SafeList", "SampledSafe", "safe_faces", "variant"]


class Rollouts(Cheater):
    """``pimc`` / ``pimc_hands``: an honest-information heavy search, too slow to be a bot.

    ``pimc`` reads only its own view: each of ``samples`` worlds is one of Luna's
    determinizations (:class:`pifecacheta.bots.sampling.Sampler`: hidden hands and stock guessed
    from the view, the stock rebuilt with an unknown seed); ``pimc_hands`` has the opponents' true
    hands in every world and only the stock guessed (perfect inference of the hands). In each
    world every candidate is played out to the end of the round by the engine itself, the
    opponents as ``simple`` players (the table's model, a fresh random stream per world) and
    itself as Luna's base policy; a candidate scores +1 / -1 / 0 when it / another seat /
    nobody (action cap) goes out. Candidates: on the draw, drawing (then the base's throw) and
    taking the top discard (then the base's throw); on the throw, the base's throw and the
    ``TOP`` best by the base's value among those that keep the most cards in melds. The base's
    choice stands unless another's paired mean gain over the worlds is more than ``z`` standard
    errors above 0 (as Luna's search, :func:`pifecacheta.bots.luna._confident`)."""

    def __init__(self, *, hands: bool, samples: int = 8, z: float = 1.0, cap: int = 400) -> None:
        self.hands, self.samples, self.z, self.cap = hands, samples, z, cap
        self.name = "pimc_hands" if hands else "pimc"
        self.rollouts = 0

    def _worlds(self, match: Match, seat: int, rng: random.Random) -> list[Match]:
        from dataclasses import replace

        from pifecacheta.bots.sampling import Sampler

        view = player_view(match, seat)
        sampler = Sampler(view)
        r = match.round
        assert r is not None
        out: list[Match] = []
        for _ in range(self.samples):
            det = sampler.sample(rng)
            hands = list(det.hands)
            stock = list(det.stock)
            if self.hands:  # the true hands; the stock: the true unseen cards, shuffled
                hands = list(r.hands)
                stock = list(r.stock)
                rng.shuffle(stock)
            hands[seat] = r.hands[seat]
            w = replace(r, hands=tuple(hands), stock=tuple(stock))
            out.append(replace(match, round=w, seed=rng.getrandbits(32), key=None))
        return out

    def act(self, match: Match, seat: int, rngs: Sequence[random.Random], poll: set[int]) -> Action | None:
        from pifecacheta.bots.arena import policy

        r = match.round
        assert r is not None
        view = player_view(match, seat)
        base = luna.base_action(view, rng=random.Random(rngs[seat].getrandbits(64)))
        if r.turn != seat or r.phase not in (Phase.DRAW, Phase.DISCARD) or view.can_announce:
            return base
        cands: list[list[Action]] = []
        if r.phase is Phase.DRAW:
            if settled_draw(view) is not None:
                return base
            cands = [[Draw()], [TakeDiscard()]]
            ref = 0 if isinstance(base, Draw) else 1
        else:
            if go_out_plan(view) is not None or not isinstance(base, Discard):
                return base
            style = luna._style(view)
            idx = HandIndex.of(view.hand, wilds=view.wilds, plain=view.plain, rules=view.rules)
            allowed = set(allowed_discards(view))
            cand = [i for i, c in enumerate(idx.cards) if c in allowed]
            cover = {i: idx.max_cover(idx.full ^ (1 << i)) for i in cand}
            cand = [i for i in cand if cover[i] == max(cover.values())]
            scorer = _Scorer(idx, Table(view, style), style)
            cand.sort(key=lambda i: (-scorer.value(idx.full ^ (1 << i)), i))
            throws = [base.card] + [idx.cards[i] for i in cand[: luna.TOP] if idx.cards[i] != base.card]
            if len(throws) == 1:
                return base
            cands = [[Discard(c)] for c in throws]
            ref = 0
        srng = random.Random(rngs[seat].getrandbits(64) ^ 0x5EED)
        me = policy("luna_base")
        simple = policy("simple")
        seats: list[Seat] = [me if s == seat else simple for s in range(match.seats)]
        results: list[list[int]] = [[] for _ in cands]
        for world in self._worlds(match, seat, srng):
            wr = [random.Random(srng.getrandbits(64)) for _ in range(match.seats)]
            for k, acts in enumerate(cands):
                copies = [_copy(x) for x in wr]
                end, _ = run(world, seats, copies, set(poll), self.cap, script=list(acts), scripted=seat)
                self.rollouts += 1
                assert end.round is not None
                w = None if end.round.result is None else end.round.result.winner
                results[k].append(0 if w is None else (1 if w == seat else -1))
        best, gain = ref, 0.0
        for k in range(len(cands)):
            if k == ref:
                continue
            g = luna._confident([a - b for a, b in zip(results[k], results[ref], strict=True)], self.z)
            if g > gain:
                best, gain = k, g
        return cands[best][0]


class SampledSafe(Cheater):
    """``feed<n>_<delta>`` (honest: reads only its own view): Luna's base policy whose throw is
    replaced when, over ``n`` of Luna's determinizations, it lets an opponent go out at once
    (:func:`pifecacheta.bots.search.claim` on the sampled hands) ``delta`` more often than the
    safest throw among those that keep the most cards in melds (ties: the base's value). The
    honest counterpart of :class:`SafeBase`."""

    def __init__(self, *, n: int, delta: float) -> None:
        self.n, self.delta = n, delta
        self.name = f"feed{n}_{delta}"

    def act(self, match: Match, seat: int, rngs: Sequence[random.Random], poll: set[int]) -> Action | None:
        from pifecacheta.bots.sampling import Sampler
        from pifecacheta.bots.search import Seating, claim, opponent_outs

        view = player_view(match, seat)
        a = luna.base_action(view, rng=rngs[seat])
        if not isinstance(a, Discard):
            return a
        style = luna._style(view)
        idx = HandIndex.of(view.hand, wilds=view.wilds, plain=view.plain, rules=view.rules)
        allowed = set(allowed_discards(view))
        cand = [i for i, c in enumerate(idx.cards) if c in allowed]
        cover = {i: idx.max_cover(idx.full ^ (1 << i)) for i in cand}
        cand = [i for i in cand if cover[i] == max(cover.values())]
        if len(cand) < 2:
            return a
        sampler, seating = Sampler(view), Seating.of(view)
        opps = list(seating.after.get(seat, ()))
        srng = random.Random(rngs[seat].getrandbits(64))
        fed = {i: 0 for i in cand}
        for _ in range(self.n):
            outs = opponent_outs(view, sampler.sample(srng), opps)
            for i in cand:
                fed[i] += claim(seating, outs, view.announced, seat, idx.cards[i]) is not None
        pick = idx.cards.index(a.card)
        scorer = _Scorer(idx, Table(view, style), style)
        safest = min(cand, key=lambda i: (fed[i], -scorer.value(idx.full ^ (1 << i)), i))
        if (fed.get(pick, 0) - fed[safest]) / self.n > self.delta:
            return Discard(idx.cards[safest])
        return a


class BaseVariant(Cheater):
    """``base_d<defence>`` (honest: reads only its own view): Luna's base policy with v1's danger
    term at weight ``defence`` (:class:`pifecacheta.bots.strategy.Style`), as a tie-break among
    the throws that keep the most cards in melds."""

    def __init__(self, *, defence: float) -> None:
        self.defence = defence
        self.name = f"base_d{defence:g}"

    def act(self, match: Match, seat: int, rngs: Sequence[random.Random], poll: set[int]) -> Action | None:
        from dataclasses import replace

        from pifecacheta.bots.strategy import decide

        view = player_view(match, seat)
        return decide(view, replace(luna._style(view), defence=self.defence), rngs[seat])


def safe_faces(view: PlayerView, seat: int) -> frozenset[object]:
    """Faces ``seat`` cannot go out on now, by the pile alone: its own last throw and every card
    thrown after it that is still on the pile (its 9 cards have not changed since, and in Pife
    any throw that completes them makes it go out at once, seed 000 line 60; in Cacheta the
    same for an announced seat, line 64)."""
    by = view.discarded_by
    last = max((i for i, b in enumerate(by) if b == seat), default=None)
    if last is None:
        return frozenset()
    return frozenset(c.face for c in view.discard_pile[last:])


class SafeList(Cheater):
    """``safelist`` (honest: reads only its own view): Luna's base policy that, when its throw
    is not known safe (:func:`safe_faces`) against every seat that could go out on it (Pife:
    every opponent; Cacheta: the announced ones), throws instead the best-valued known-safe
    card among those that keep the most cards in melds, if there is one."""

    name = "safelist"

    def act(self, match: Match, seat: int, rngs: Sequence[random.Random], poll: set[int]) -> Action | None:
        view = player_view(match, seat)
        a = luna.base_action(view, rng=rngs[seat])
        if not isinstance(a, Discard):
            return a
        others = [s for s in range(view.seats) if s != seat and view.hand_counts[s] > 0 and s not in view.out]
        threats = others if view.rules.mode is Mode.PIFE else [s for s in others if s in view.announced]
        if not threats:
            return a
        safe = [safe_faces(view, s) for s in threats]

        def ok(c: Card) -> bool:
            return all(c.face in f for f in safe)

        if ok(a.card):
            return a
        style = luna._style(view)
        idx = HandIndex.of(view.hand, wilds=view.wilds, plain=view.plain, rules=view.rules)
        allowed = set(allowed_discards(view))
        cand = [i for i, c in enumerate(idx.cards) if c in allowed]
        cover = {i: idx.max_cover(idx.full ^ (1 << i)) for i in cand}
        good = [i for i in cand if cover[i] == max(cover.values()) and ok(idx.cards[i])]
        if not good:
            return a
        scorer = _Scorer(idx, Table(view, style), style)
        return Discard(idx.cards[max(good, key=lambda i: (scorer.value(idx.full ^ (1 << i)), -i))])


def variant(name: str) -> Cheater:
    """The honest variant ``name`` (module docstring).

    Raises:
        KeyError: unknown name.
    """
    if name.startswith("pimc"):  # pimc, pimc_hands, pimc<samples>, pimc_hands<samples>
        hands = name.startswith("pimc_hands")
        rest = name[len("pimc_hands") if hands else len("pimc") :]
        return Rollouts(hands=hands, samples=int(rest or 8))
    if name == "safelist":
        return SafeList()
    if name.startswith("base_d"):
        return BaseVariant(defence=float(name[6:]))
    if name.startswith("feed"):  # feed<n>_<delta>
        n, delta = name[4:].split("_")
        return SampledSafe(n=int(n), delta=float(delta))
    raise KeyError(name)
