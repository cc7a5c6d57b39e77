"""A contact sheet: one rendered frame per deck, tiled (render/README.md shows it).

Run ``python -m render.contact render/contact_sheet.png``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

from compliance.events import EventKind
from render.clip import plan_clip, render_frames
from render.scenario import RoundSpec, Scenario

__all__ = ["CONTACT_DECKS", "contact_sheet"]

CONTACT_DECKS = (
    "bellot",
    "dondorf",
    "plastic",
    "tigullio",
    "simplistic",
    "anglo",
    "paris",
    "tango_nuevo",
    "neoclassical",
)


def contact_sheet(out: Path, decks: tuple[str, ...] = CONTACT_DECKS, cols: int = 3, width: int = 480) -> None:
    tiles = []
    for i, deck in enumerate(decks):
        game = "seven-card" if i % 2 == 0 else "six-card"
        sc = Scenario(
            name=f"contact-{deck}",
            game=game,
            deck=deck,
            face_up_dealing=i % 3 == 2,
            rounds=[RoundSpec(lcd=1 + i % 7, active_seats=[2, 3, 5], iverify_seats=[5])],
        )
        _, director = plan_clip(sc, i)
        ev = director.rounds[0].events
        # A moment with the dealer's hand set, a player's hand face up and the arm out.
        t = next(e.frame for e in ev if e.kind == EventKind.PLAYER_EXPOSED and e.position == "seat3") + 3
        if i % 2:
            t = next(e.frame for e in ev if e.kind == EventKind.IVERIFY_SEAT) + 10
        _, img, _, _ = next(render_frames(sc, i, frames=[t]))
        img = cv2.resize(img, (width, width * img.shape[0] // img.shape[1]), interpolation=cv2.INTER_AREA)
        cv2.putText(
            img,
            f"{deck} ({game})",
            (10, img.shape[0] - 12),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.6,
            (255, 255, 255),
            2,
            cv2.LINE_AA,
        )
        tiles.append(img)
    while len(tiles) % cols:
        tiles.append(np.zeros_like(tiles[0]))
    rows = [np.hstack(tiles[r : r + cols]) for r in range(0, len(tiles), cols)]
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), np.vstack(rows), [cv2.IMWRITE_PNG_COMPRESSION, 9])


if __name__ == "__main__":
    contact_sheet(Path(sys.argv[1] if len(sys.argv) > 1 else "render/contact_sheet.png"))
