"""The pseudo-locale run's record across the processes of a spread run (``-n 2``): each worker
hands what it checked and found to the controller, which reports the whole
(tests/conftest.py, tests/pseudo_locale.py)."""

from __future__ import annotations

import json

from pseudo_locale import Escape, Record


def test_a_workers_record_is_counted_whole_in_the_controllers() -> None:
    worker = Record(checked=12, drawn=5)
    worker.escapes.append(Escape("test_x.py::test_y", "content", "Open the board", ("Open",)))
    controller = Record(checked=3, drawn=1)
    # What a worker hands over crosses a process boundary: plain values only.
    controller.add(json.loads(json.dumps(worker.dump())))
    assert (controller.checked, controller.drawn) == (15, 6)
    assert controller.escapes == worker.escapes
    assert (
        controller.summary()[0] == "pseudo-locale: 15 texts checked (6 drawn on images), 1 escapes"
    )
