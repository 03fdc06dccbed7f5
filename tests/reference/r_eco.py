"""Independent hand-written reference implementation of R-Eco.

Follows the R-Eco rule sheet as docs/games.md describes it ("R-Eco", sections Components ..
Scoring).  Used by
tests to cross-check the rules interpreter and as a speed baseline, so it is
deliberately plain: card types are small ints, piles are lists (bottom to top,
top card = last element), hands and disposal piles are per-type count lists.

Card type index t: material = t // 2, icons = t % 2 + 1, in canonical order
cans:1, cans:2, glass:1, glass:2, plastic:1, plastic:2, paper:1, paper:2.

Move texts:
    deliver: 2*glass:1 + 1*glass:2   (one material, N*TYPE terms, canonical order)
    factory: glass                   (only when the hand is empty at turn start)
    dispose: 1*cans:1 + 2*paper:2    (exactly the excess over 5 hand cards)

Chance entries (shuffle outcomes): {"zone": "draw", "order": [type names bottom to top]}.
A pile of fewer than 2 cards is never shuffled and uses no entry.
"""

import random

MATERIALS = ("cans", "glass", "plastic", "paper")
TYPES = tuple("%s:%d" % (m, i) for m in MATERIALS for i in (1, 2))
TYPE_INDEX = {name: t for t, name in enumerate(TYPES)}
MATERIAL_INDEX = {m: i for i, m in enumerate(MATERIALS)}
ICONS = tuple(t % 2 + 1 for t in range(8))
COPIES = tuple(19 if t % 2 == 0 else 3 for t in range(8))  # 88 cards in total
HAND_LIMIT = 5

# reward stacks, top first (as in the rule sheet)
REWARDS_TOP_FIRST = {
    2: (0, 1, 2, -2, 4, 5),
    3: (0, 1, 2, 3, -2, 4, 5),
    4: (0, 1, 2, 3, -2, 4, 5),
    5: (0, 1, 2, 3, 3, -2, 4, 5),
}

DELIVER, DISPOSE = 0, 1


def format_counts(counts):
    """'N*TYPE + ...' for a per-type count vector (types with N > 0, canonical order)."""
    return " + ".join("%d*%s" % (c, TYPES[t]) for t, c in enumerate(counts) if c)


def parse_counts(text):
    """Inverse of format_counts; raises ValueError unless text is exactly canonical."""
    counts = [0] * 8
    last = -1
    for term in text.split(" + "):
        n, star, name = term.partition("*")
        if not star or name not in TYPE_INDEX or not n.isdigit() or str(int(n)) != n:
            raise ValueError("bad term %r" % term)
        t = TYPE_INDEX[name]
        c = int(n)
        if c < 1 or t <= last:
            raise ValueError("bad term order/count in %r" % text)
        counts[t] = c
        last = t
    return counts


def score(players, taken, disposed):
    """Scores per the sheet.  taken[p]: list of (material, value); disposed[p]: int."""
    scores = []
    dirty = sum(1 for d in disposed if d)
    for p in range(players):
        s = 0
        per = [[] for _ in MATERIALS]
        for m, v in taken[p]:
            per[m].append(v)
        for vals in per:
            if len(vals) >= 2:
                s += sum(vals)
        s -= disposed[p]
        if disposed[p] == 0:
            if players == 2:
                s += 4
            elif players == 3:
                s += 2 * dirty
            else:
                s += dirty
        scores.append(s)
    return scores


def winners(scores, disposed):
    best = max(scores)
    tied = [p for p, s in enumerate(scores) if s == best]
    fewest = min(disposed[p] for p in tied)
    return [p for p in tied if disposed[p] == fewest]


class Game:
    def __init__(self, players, seed=None, chance=None):
        if players not in REWARDS_TOP_FIRST:
            raise ValueError("R-Eco needs 2-5 players")
        if (seed is None) == (chance is None):
            raise ValueError("give exactly one of seed / chance")
        self.players = players
        self._rng = random.Random(seed) if chance is None else None
        self._chance = list(chance) if chance is not None else None
        self._ci = 0
        self.chance_log = []

        self.rewards = [list(reversed(REWARDS_TOP_FIRST[players])) for _ in MATERIALS]  # top = last
        self.sides = [[] for _ in MATERIALS]        # recycling sides
        self.side_icons = [0, 0, 0, 0]
        self.dumps = [[] for _ in MATERIALS]        # dump sites
        self.discard = []
        self.hands = [[0] * 8 for _ in range(players)]
        self.hand_size = [0] * players
        self.disposed = [[0] * 8 for _ in range(players)]
        self.disposed_n = [0] * players
        self.taken = [[] for _ in range(players)]   # (material, value)
        self.current = 0
        self.phase = DELIVER
        self.over = False
        self._factory = None   # factory of the turn (while disposing)
        self._ending = False   # last reward of a factory taken this turn

        draw = []
        for t in range(8):
            draw.extend([t] * COPIES[t])
        self.draw = draw
        self._shuffle(draw)
        hands = self.hands
        for _ in range(3):
            for p in range(players):
                hands[p][draw.pop()] += 1
                self.hand_size[p] += 1
        for m in range(4):
            self.dumps[m].append(draw.pop())

    # ---------------------------------------------------------------- chance
    def _shuffle(self, pile):
        if len(pile) < 2:
            return
        if self._chance is None:
            self._rng.shuffle(pile)
        else:
            if self._ci >= len(self._chance):
                raise ValueError("chance list exhausted")
            entry = self._chance[self._ci]
            if entry.get("zone") != "draw":
                raise ValueError("chance entry for zone %r, expected 'draw'" % entry.get("zone"))
            try:
                order = [TYPE_INDEX[name] for name in entry["order"]]
            except KeyError as e:
                raise ValueError("unknown card type %s in chance entry" % e) from None
            if sorted(order) != sorted(pile):
                raise ValueError("chance entry %d does not match the pile's cards" % self._ci)
            pile[:] = order
        self._ci += 1
        self.chance_log.append({"zone": "draw", "order": [TYPES[t] for t in pile]})

    @property
    def chance_used(self):
        return self._ci

    # ---------------------------------------------------------------- moves
    def _options(self):
        """Legal choices as (kind, data): ('factory', m), ('deliver', counts), ('dispose', counts)."""
        if self.over:
            return []
        hand = self.hands[self.current]
        opts = []
        if self.phase == DELIVER:
            if self.hand_size[self.current] == 0:
                return [("factory", m) for m in range(4)]
            for m in range(4):
                t1 = 2 * m
                n1, n2 = hand[t1], hand[t1 + 1]
                for a in range(n1 + 1):
                    for b in range(n2 + 1):
                        if a or b:
                            c = [0] * 8
                            c[t1] = a
                            c[t1 + 1] = b
                            opts.append(("deliver", c))
            return opts
        # dispose: all multisets of the hand of size = excess
        need = self.hand_size[self.current] - HAND_LIMIT
        c = [0] * 8
        avail_after = [0] * 9
        for t in range(7, -1, -1):
            avail_after[t] = avail_after[t + 1] + hand[t]

        def rec(t, left):
            if left == 0:
                opts.append(("dispose", c[:]))
                return
            if t == 8 or avail_after[t] < left:
                return
            for k in range(min(hand[t], left), -1, -1):
                c[t] = k
                rec(t + 1, left - k)
            c[t] = 0

        rec(0, need)
        return opts

    @staticmethod
    def _text(kind, data):
        if kind == "factory":
            return "factory: " + MATERIALS[data]
        return kind + ": " + format_counts(data)

    def legal_moves(self):
        return [self._text(k, d) for k, d in self._options()]

    def apply(self, text):
        if self.over:
            raise ValueError("game is over")
        kind, sep, rest = text.partition(": ")
        if not sep:
            raise ValueError("bad move %r" % text)
        p = self.current
        hand = self.hands[p]
        if kind == "factory":
            if self.phase != DELIVER or self.hand_size[p] != 0 or rest not in MATERIAL_INDEX:
                raise ValueError("illegal move %r" % text)
            self._do("factory", MATERIAL_INDEX[rest])
            return
        if kind not in ("deliver", "dispose"):
            raise ValueError("bad move %r" % text)
        counts = parse_counts(rest)
        if any(c > h for c, h in zip(counts, hand)):
            raise ValueError("illegal move %r: cards not in hand" % text)
        if kind == "deliver":
            if self.phase != DELIVER:
                raise ValueError("illegal move %r: not the deliver step" % text)
            mats = {t // 2 for t in range(8) if counts[t]}
            if len(mats) != 1:
                raise ValueError("illegal move %r: one material only" % text)
        else:
            if self.phase != DISPOSE:
                raise ValueError("illegal move %r: no hand limit to resolve" % text)
            if sum(counts) != self.hand_size[p] - HAND_LIMIT:
                raise ValueError("illegal move %r: must dispose exactly the excess" % text)
        self._do(kind, counts)

    def _do(self, kind, data):
        p = self.current
        hand = self.hands[p]
        if kind == "dispose":
            dis = self.disposed[p]
            n = 0
            for t in range(8):
                c = data[t]
                if c:
                    hand[t] -= c
                    dis[t] += c
                    n += c
            self.hand_size[p] -= n
            self.disposed_n[p] += n
            self._finish(self._factory)
            return
        if kind == "factory":
            m = data
        else:
            # 1. deliver
            side = None
            n = 0
            for t in range(8):
                c = data[t]
                if c:
                    m = t // 2
                    side = self.sides[m]
                    hand[t] -= c
                    side.extend([t] * c)
                    self.side_icons[m] += c * ICONS[t]
                    n += c
            self.hand_size[p] -= n
            if self.side_icons[m] >= 4:
                stack = self.rewards[m]
                self.taken[p].append((m, stack.pop()))
                self.discard.extend(side)
                side.clear()
                self.side_icons[m] = 0
                if not stack:
                    self._ending = True
        # 2. collect
        dump = self.dumps[m]
        for t in dump:
            hand[t] += 1
        self.hand_size[p] += len(dump)
        dump.clear()
        # 3. hand limit
        if self.hand_size[p] > HAND_LIMIT:
            self.phase = DISPOSE
            self._factory = m
            return
        self._finish(m)

    def _finish(self, m):
        if self._ending:
            self.over = True
            self.phase = DELIVER
            self._factory = None
            return
        # 4. refill
        draw = self.draw
        dump = self.dumps[m]
        for _ in range(self.side_icons[m] + 1):
            if not draw:
                if not self.discard:
                    break
                draw.extend(self.discard)
                self.discard.clear()
                self._shuffle(draw)
            dump.append(draw.pop())
        self.phase = DELIVER
        self._factory = None
        self.current = (self.current + 1) % self.players

    # ---------------------------------------------------------------- result
    def result(self):
        """Scores of the current state (final once `over`), and the winners."""
        sc = score(self.players, self.taken, self.disposed_n)
        return {"scores": sc, "winners": winners(sc, self.disposed_n)}


def replay(record, require_complete=True):
    """Replay a record {"players", "chance", "moves": [{"seat", "move"}]} and return
    the result.  Raises ValueError on an illegal move, a wrong seat, moves after the
    end, or (require_complete) an unfinished game or unused chance entries."""
    g = Game(record["players"], chance=record["chance"])
    for i, mv in enumerate(record["moves"]):
        if g.over:
            raise ValueError("move %d after the end of the game" % i)
        if mv["seat"] != g.current:
            raise ValueError("move %d: seat %r is not to move (seat %d is)" % (i, mv["seat"], g.current))
        g.apply(mv["move"])
    if require_complete:
        if not g.over:
            raise ValueError("record ends before the game is over")
        if g.chance_used != len(record["chance"]):
            raise ValueError("record has %d unused chance entries" % (len(record["chance"]) - g.chance_used))
    return g.result()


def random_game(players, seed, max_moves=100000):
    """Play one game with uniformly random legal moves; one random.Random(seed) drives
    both shuffles and choices.  Returns {"players", "seed", "chance", "moves", "result"}."""
    g = Game(players, seed=seed)
    rng = g._rng
    moves = []
    while not g.over:
        if len(moves) >= max_moves:
            raise RuntimeError("random game exceeded %d moves" % max_moves)
        opts = g._options()
        kind, data = opts[rng.randrange(len(opts))]
        moves.append({"seat": g.current, "move": Game._text(kind, data)})
        g._do(kind, data)
    return {"players": players, "seed": seed, "chance": g.chance_log,
            "moves": moves, "result": g.result()}
