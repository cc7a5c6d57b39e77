"""The detector's memory (``vision._still_memory``): a picture is answered from memory only while its
pixels hold still, block by block."""

from __future__ import annotations

import numpy as np
import pytest

from vision._still_memory import StillMemory


def _tile(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(40, 200, (256, 256, 3), dtype=np.uint8)


def _noisy(tile: np.ndarray, amp: int, seed: int = 1) -> np.ndarray:
    noise = np.random.default_rng(seed).integers(-amp, amp + 1, tile.shape)
    return np.clip(tile.astype(int) + noise, 0, 255).astype(np.uint8)


def test_an_unchanged_tile_is_answered_and_a_video_s_noise_does_not_count_as_change() -> None:
    mem, tile = StillMemory(), _tile()
    assert mem.recall("p", tile) is None  # nothing read there yet
    mem.keep("p", tile, "found")
    assert mem.recall("p", tile.copy()) == "found"
    assert mem.recall("p", _noisy(tile, 3)) == "found"  # compression noise: each block's mean holds
    assert (mem.asked, mem.answered) == (3, 2)


def test_an_index_sized_change_anywhere_in_the_tile_is_read_again() -> None:
    mem, tile = StillMemory(), _tile()
    mem.keep("p", tile, "found")
    for y, x in [(0, 0), (120, 37), (246, 246)]:
        changed = tile.copy()
        changed[y : y + 10, x : x + 10] = 255 - changed[y : y + 10, x : x + 10]  # one small index, turned
        assert mem.recall("p", changed) is None, (y, x)
    darker = np.clip(tile.astype(int) - 12, 0, 255).astype(np.uint8)  # the light changed
    assert mem.recall("p", darker) is None


def test_a_place_is_matched_by_pixels_and_keeps_its_last_tiles() -> None:
    mem = StillMemory(per_place=2)
    a, b, c = _tile(1), _tile(2), _tile(3)
    mem.keep("p", a, "a")
    mem.keep("p", b, "b")
    assert mem.recall("p", a) == "a" and mem.recall("p", b) == "b"  # two seats' crops at one place
    assert mem.recall("q", a) is None  # another place: not the same tile of the image
    mem.keep("p", c, "c")  # the least recently used (a) is forgotten
    assert mem.recall("p", a) is None
    assert mem.recall("p", b) == "b" and mem.recall("p", c) == "c"
    assert mem.recall("p", a[:128]) is None  # a smaller tile at the same place


def test_a_slow_drift_adds_up_to_a_new_read() -> None:
    """The tile kept is the one stage 1 read: frames that each change a little, each within reach of
    the last, are compared with that read, not with the frame before."""
    mem, tile = StillMemory(), _tile()
    mem.keep("p", tile, "found")
    answers = []
    for step in range(1, 8):
        drifted = tile.copy()
        drifted[100:140, 100:140] = np.clip(tile[100:140, 100:140].astype(int) + 4 * step, 0, 255)
        answers.append(mem.recall("p", drifted))
    assert answers[0] == "found" and answers[-1] is None


def test_a_few_changed_blocks_clear_of_the_finds_are_tolerated_when_asked() -> None:
    """``loose``: up to that many changed blocks, none on or beside a box found, still answer; a change
    on a found index, next to it, or over more blocks does not."""
    mem, tile = StillMemory(), _tile()
    box = np.array([[40.0, 40.0, 60.0, 74.0]])  # an index found on the tile
    mem.keep("p", tile, (box, "found"))

    def flipped(*spots: tuple[int, int]) -> np.ndarray:
        out = tile.copy()
        for y, x in spots:
            out[y : y + 8, x : x + 8] = 255 - out[y : y + 8, x : x + 8]  # one whole 8-px block
        return out

    def recall(picture: np.ndarray) -> object:
        return mem.recall("p", picture, loose=3, boxes=lambda f: f[0])

    far = flipped((200, 200), (0, 160), (240, 8))  # three blocks, far from the index
    assert mem.recall("p", far) is None  # strict by default
    assert recall(far) is not None and mem.answered_loose == 1
    assert recall(flipped((200, 200), (0, 160), (240, 8), (120, 200))) is None  # four blocks
    assert recall(flipped((48, 48))) is None  # on the index
    assert recall(flipped((80, 48))) is None  # the block next to it (below the box's last block)
    assert recall(flipped((96, 48))) is not None  # two blocks below: clear of it
    assert mem.recall("p", flipped((96, 48)), loose=3) is None  # no boxes given: strict


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="per_place"):
        StillMemory(per_place=0)
    with pytest.raises(ValueError, match="still"):
        StillMemory(still=0)


def test_read_through_reads_only_the_pictures_not_remembered_and_remembers_them() -> None:
    from vision._still_memory import read_through

    asked: list[list[int]] = []
    shown: list[np.ndarray] = []

    def read(todo: list[int]) -> np.ndarray:
        asked.append(todo)
        return np.array([[float(shown[i].mean()), float(i)] for i in todo])

    pictures = [_tile(1)[:32, :32], _tile(2)[:32, :32], _tile(3)[:32, :32]]
    mem = StillMemory(2, block=4)
    shown[:] = pictures
    first = read_through(mem, ["a", "b", "c"], pictures, read)
    assert asked == [[0, 1, 2]] and first.shape == (3, 2)
    changed = pictures[1].copy()
    changed[:8, :8] = 255 - changed[:8, :8]
    shown[:] = [pictures[0], changed, pictures[2]]
    again = read_through(mem, ["a", "b", "c"], shown, read)
    assert asked[-1] == [1]  # only the picture that changed is read again
    assert np.array_equal(again[[0, 2]], first[[0, 2]]) and again[1, 0] != first[1, 0]
    read_through(None, ["a", "b", "c"], pictures, read)  # no memory: everything is read
    assert asked[-1] == [0, 1, 2]


def _table_tile() -> np.ndarray:
    """Felt with a little texture and a card's white face on it (a stage-1 tile of a seat's area)."""
    rng = np.random.default_rng(5)
    tile = np.clip(np.array([60, 120, 50]) + rng.integers(-6, 7, (256, 256, 3)), 0, 255).astype(np.uint8)
    tile[60:200, 80:180] = 230
    return tile


def test_a_noisy_cameras_still_tile_is_answered_where_the_memory_tolerates_noise() -> None:
    """Sensor noise of +-18 levels at every pixel, fresh each frame, moves every block's mean absolute
    difference past ``still`` (the sample with noise added: no tile was ever answered); its blocks'
    signed means stay near 0. A tolerant memory (stage 1's) answers the tile; a strict one does not."""
    tile = _table_tile()
    strict, tolerant = StillMemory(), StillMemory(noise_tolerant=True)
    for mem in (strict, tolerant):
        mem.keep("p", _noisy(tile, 18, seed=1), "found")
    frames = [_noisy(tile, 18, seed=s) for s in range(2, 7)]
    assert [strict.recall("p", f) for f in frames] == [None] * 5
    assert [tolerant.recall("p", f) for f in frames] == ["found"] * 5
    assert tolerant.answered_noisy == 5


def test_under_noise_an_index_appearing_or_the_light_changing_is_still_a_change() -> None:
    tile = _table_tile()
    mem = StillMemory(noise_tolerant=True)
    mem.keep("p", _noisy(tile, 18, seed=1), "found")
    for y, x in [(70, 90), (150, 150)]:  # an index, 12 x 20 px of ink, on the card's face
        inked = tile.copy()
        inked[y : y + 20, x : x + 12] = 30
        assert mem.recall("p", _noisy(inked, 18, seed=2)) is None, (y, x)
    for shift in (-12, 12):  # the lights dimmed or brightened
        lit = np.clip(tile.astype(int) + shift, 0, 255).astype(np.uint8)
        assert mem.recall("p", _noisy(lit, 18, seed=3)) is None, shift
    covered = tile.copy()
    covered[:, :150] = (40, 40, 120)  # a sleeve over most of the tile
    assert mem.recall("p", _noisy(covered, 18, seed=4)) is None
    assert mem.answered == 0
