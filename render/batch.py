"""Ground truth of a clip without its video: the layout, ``.states.jsonl`` and ``.truth.json`` only.

``write_truth(scenario, seed, out_dir)`` writes the same ``<clip>.states.jsonl`` and
``<clip>.truth.json`` (and the layout YAML) as ``render.clip.render_clip`` with that seed, but draws no
cards, no camera effects and encodes no video, so a batch of hundreds of rounds for the compliance
engine takes minutes instead of hours. The states' ``occluded`` zones need the arm's and the towel's
outline in the image: for frames with an arm or the towel the renderer draws the scene stripped of
its cards and only its occlusion mask is used. No ``.boxes.jsonl.gz`` is written (card boxes need
every card drawn). ``benchmarks/compliance_batch.py --video`` checks that both ways give identical
files.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from compliance.events import ClipTruth
from render.artwork import load_deck
from render.clip import (
    _ART_SOURCE_WIDTH,
    _deck_for,
    _Zones,  # the renderer's own zone masks and 20 % threshold, so both ways mark the same zones
    layout_file_name,
    plan_clip,
    true_state,
    write_clip_truth,
)
from render.draw import FrameRenderer
from render.scenario import Scenario
from render.table import write_layout

__all__ = ["write_truth"]


def write_truth(
    scenario: Scenario,
    seed: int,
    out_dir: str | Path,
    name: str | None = None,
    image_size: tuple[int, int] | None = None,
) -> ClipTruth:
    """Play ``scenario`` with ``seed`` and write its layout, states and truth into ``out_dir`` (no video).

    The files are those ``render_clip(scenario, seed, out_dir, name, image_size=image_size)`` writes,
    byte for byte; the
    truth's ``clip`` names the video that ``render_clip`` would write (``<name>.mp4``).
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    clip = name or scenario.name
    layout, director = plan_clip(scenario, seed, image_size)
    zones = _Zones(layout)
    # Only the arm's and the towel's outlines are taken from the renderer (effects off, no cards).
    renderer = FrameRenderer(layout, load_deck(_deck_for(scenario, seed), _ART_SOURCE_WIDTH), seed, False)
    layout_name = layout_file_name(layout)
    write_layout(layout, out / layout_name)
    prev: dict[str, object] | None = None
    with open(out / f"{clip}.states.jsonl", "w") as fs:
        for k, scene in enumerate(director.frames):
            occluded: list[str] = []
            if scene.arm is not None or scene.covered:
                _, _, mask = renderer.render(dataclasses.replace(scene, cards=()), k)
                occluded = zones.occluded(mask)
            state = true_state(layout, scene, k, occluded)
            key = state.model_dump(exclude={"frame", "t"})
            if key != prev:
                fs.write(state.model_dump_json() + "\n")
                prev = key
    return write_clip_truth(out, clip, scenario, seed, layout, director)
