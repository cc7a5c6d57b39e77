"""House-way throughput: the shipped house ways over many hands, each setting checked.

Target (team brief): 200,000 hands/s or more on the 2-core machine, over all 22,957,480
six-card hands (``wsgc-6card``) and at least 10 million random seven-card hands (``mbs-7card``).
Each setting is checked: the low hand is exactly ``low_size`` of the dealt cards, the high hand
the other five (so the setting uses exactly the dealt cards), and it never fouls.

    .venv/bin/python benchmarks/houseway_throughput.py            # full: all 6-card + 10M 7-card
    .venv/bin/python benchmarks/houseway_throughput.py --quick    # 2M + 2M, for a smoke run
    .venv/bin/python benchmarks/houseway_throughput.py --seven-all  # + all 154,143,080 7-card hands

Prints hands/s of the house way alone (``TableHouseWay.set_many``, the same kernel the per-hand
API calls) and of the whole loop (dealing + house way + checks), and the rows that decided.
"""

from __future__ import annotations

import argparse
import math
import time

import numba
import numpy as np

from rules._kernels import fouls, high_value5, low_value1, low_value2
from rules.cards import Card
from rules.houseway import TableHouseWay, load_house_way

CHUNK = 1_000_000


@numba.njit(cache=True)
def _next_combos(state: np.ndarray, out: np.ndarray, n: int) -> int:
    """Fill ``out`` with the next combinations of ``n`` after ``state`` (lexicographic); rows written."""
    k = state.shape[0]
    rows = 0
    while rows < out.shape[0]:
        if state[0] < 0:
            break
        out[rows, :] = state
        rows += 1
        i = k - 1
        while i >= 0 and state[i] == n - k + i:
            i -= 1
        if i < 0:
            state[0] = -1
            break
        state[i] += 1
        for j in range(i + 1, k):
            state[j] = state[j - 1] + 1
    return rows


@numba.njit(cache=True)
def _random_hands(out: np.ndarray, seed: int) -> None:
    np.random.seed(seed)
    deck = np.arange(53)
    k = out.shape[1]
    for r in range(out.shape[0]):
        for i in range(k):
            j = i + np.random.randint(53 - i)
            deck[i], deck[j] = deck[j], deck[i]
            out[r, i] = deck[i]


@numba.njit(cache=True)
def _check(hands: np.ndarray, masks: np.ndarray, low_size: int) -> tuple[int, int]:
    """(illegal settings, fouled settings) among the house-way results."""
    n = hands.shape[1]
    illegal = 0
    fouled = 0
    high = np.empty(5, dtype=np.int64)
    low = np.empty(2, dtype=np.int64)
    for r in range(hands.shape[0]):
        m = masks[r]
        nh = 0
        nl = 0
        for i in range(n):
            if (m >> i) & 1:
                if nl < 2:
                    low[nl] = hands[r, i]
                nl += 1
            else:
                if nh < 5:
                    high[nh] = hands[r, i]
                nh += 1
        if m <= 0 or m >= (1 << n) or nl != low_size or nh != 5:
            illegal += 1
            continue
        hv = high_value5(high[0], high[1], high[2], high[3], high[4])
        lv = low_value2(low[0], low[1]) if low_size == 2 else low_value1(low[0])
        if fouls(hv, lv):
            fouled += 1
    return illegal, fouled


def _run(way: TableHouseWay, total: int, source: str, seed: int) -> None:
    n = way.game.cards
    buf = np.empty((CHUNK, n), dtype=np.int64)
    state = np.arange(n, dtype=np.int64)
    way.set_many(np.arange(n, dtype=np.int64)[None, :])  # compile / load the cached kernels
    t_way = 0.0
    cpu_way = 0.0
    done = illegal = fouled = 0
    rows = np.zeros(len(way.rows), dtype=np.int64)
    t0 = time.perf_counter()
    chunk_no = 0
    while done < total:
        want = min(CHUNK, total - done)
        if source == "all":
            got = _next_combos(state, buf[:want], 53)
        else:
            _random_hands(buf[:want], seed + chunk_no)
            got = want
        if got == 0:
            break
        hands = buf[:got]
        t1, c1 = time.perf_counter(), time.process_time()
        masks, which = way.set_many(hands)
        t_way += time.perf_counter() - t1
        cpu_way += time.process_time() - c1
        bad, foul = _check(hands, masks, way.game.low_size)
        illegal += bad
        fouled += foul
        rows += np.bincount(which, minlength=len(way.rows))
        done += got
        chunk_no += 1
    wall = time.perf_counter() - t0
    what = "all" if source == "all" else "random"
    print(f"{way.name}: {done:,} {what} {way.game.name} hands")
    print(f"  house way (set_many):      {done / t_way:>12,.0f} hands/s  ({t_way:.1f} s wall)")
    cpu_rate = done / cpu_way
    print(f"  house way, per CPU second: {cpu_rate:>12,.0f} hands/s  ({cpu_way:.1f} s CPU, shared machine)")
    print(f"  deal + house way + checks: {done / wall:>12,.0f} hands/s  ({wall:.1f} s)")
    print(f"  illegal settings: {illegal:,}   fouled settings: {fouled:,}")
    print("  deciding rows: " + ", ".join(f"{r.id} {c:,}" for r, c in zip(way.rows, rows, strict=True) if c))
    if illegal or fouled:
        raise SystemExit(f"FAIL: {way.name} produced {illegal} illegal and {fouled} fouled settings")


def _per_hand_api(way: TableHouseWay, count: int) -> None:
    hands = np.empty((count, way.game.cards), dtype=np.int64)
    _random_hands(hands, 99)
    cards = [[Card.from_code(int(c)) for c in h] for h in hands]
    way.set(cards[0])
    t0 = time.perf_counter()
    for h in cards:
        way.set(h)
    dt = time.perf_counter() - t0
    print(f"{way.name}: per-hand Python API set(cards): {count / dt:,.0f} hands/s over {count:,} hands")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="2M six-card (in order) + 2M seven-card hands")
    ap.add_argument("--seven", type=int, default=None, help="random seven-card hands (default 10,000,000)")
    ap.add_argument("--seven-all", action="store_true", help="also all C(53,7) seven-card hands (minutes)")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    six_total = math.comb(53, 6)
    seven = args.seven if args.seven is not None else (2_000_000 if args.quick else 10_000_000)
    six = 2_000_000 if args.quick else six_total
    print(f"numba {numba.__version__}, threads {numba.get_num_threads()} (kernels run single-threaded)")
    wsgc = load_house_way("wsgc-6card")
    mbs = load_house_way("mbs-7card")
    assert isinstance(wsgc, TableHouseWay) and isinstance(mbs, TableHouseWay)
    _run(wsgc, six, "all", args.seed)
    if six == six_total:
        print(f"  (all C(53,6) = {six_total:,} six-card hands)")
    _run(mbs, seven, "random", args.seed)
    if args.seven_all:
        _run(mbs, math.comb(53, 7), "all", args.seed)
        print(f"  (all C(53,7) = {math.comb(53, 7):,} seven-card hands)")
    _per_hand_api(mbs, 20_000)
    _per_hand_api(wsgc, 20_000)


if __name__ == "__main__":
    main()
