"""numpy's BLAS kept to one thread in a process that runs the camera pipeline or reads stills.

numpy's OpenBLAS starts a worker thread per core, and after any call large enough to share out
(a few of the pipeline's small matrix products are) its workers spin, waiting for more, on the cores
the frame decoder and stage 1's tiles use. On the 720p benchmark clip (``benchmarks/vision_fps.py``)
that spinning was a third of the replay's CPU: 8.7-8.9 CPU-s for the clip with it, 5.9 without,
and the replay 8.8-8.9x real time against 10.5x (models/HISTORY.md, the thirty-fifth session). The
products are tiny; one thread computes them as fast, to the same bits (``watch``'s output unchanged).
"""

from __future__ import annotations

_limited = False


def one_blas_thread() -> None:
    """Keep numpy's BLAS to one thread from now on, in this process (once; later calls do nothing).
    The limit is the process's: the camera pipeline keeps to one core (a live table's budget), and a
    still's tiles are read on threads of their own (``vision.detector.still_workers``)."""
    global _limited
    if _limited:
        return
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")
    _limited = True
