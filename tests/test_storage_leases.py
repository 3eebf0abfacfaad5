"""Which process serves which shards (leases in the database), and when each may identify to
Discord (turns in the database), on both backends: several :class:`Storage` objects stand for
several processes, on one machine or many."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.storage import Holder, LeaseKeeper, Lost, Shards, Storage
from bot.storage.leases import Held, Taken

SECONDS = 30.0


@pytest.fixture
async def processes(database_target: str) -> AsyncIterator[list[Storage]]:
    """Three processes' storages on one database."""
    opened = [await Storage.open(database_target) for _ in range(3)]
    yield opened
    for storage in opened:
        await storage.close()


async def expire(storage: Storage, shard: int | None = None) -> None:
    """Let leases run out now (as time passing would), without waiting for it."""
    where = "" if shard is None else f" WHERE shard_id = {int(shard)}"
    async with storage.db.transaction() as connection:
        await connection.execute(f"UPDATE shard_leases SET expires_at = 0{where}")


async def test_a_shard_is_served_by_one_process_at_a_time(processes: list[Storage]) -> None:
    first, second, third = processes
    ann, ben, cat = Holder.new("ann"), Holder.new("ben"), Holder.new("cat")
    assert isinstance(await first.leases.take(Shards.of(4, {0, 1}), ann, SECONDS), Taken)
    held = await second.leases.take(Shards.of(4, {1, 2}), ben, SECONDS)
    assert isinstance(held, Held) and held.reason == "shard 1 is served by ann"
    assert 25 < held.retry_in <= SECONDS
    # All or nothing: ben took no shard, so cat may take shard 2.
    assert isinstance(await third.leases.take(Shards.of(4, {2, 3}), cat, SECONDS), Taken)
    assert await first.leases.give_back(ann) == 2
    assert isinstance(await second.leases.take(Shards.of(4, {1}), ben, SECONDS), Taken)
    owners = [(shard, who) for _, shard, who, left in await first.leases.holders() if left > 0]
    assert owners == [(1, "ben"), (2, "cat"), (3, "cat")]


async def test_a_lease_that_ran_out_is_taken_and_its_old_holder_learns_it_lost_it(
    processes: list[Storage],
) -> None:
    first, second, _ = processes
    ann, ben = Holder.new("ann"), Holder.new("ben")
    shards = Shards.of(2, {0, 1})
    assert isinstance(await first.leases.take(shards, ann, SECONDS), Taken)
    renewed = await first.leases.renew(shards, ann, SECONDS)
    assert isinstance(renewed, float)
    await expire(first, 1)
    # Run out but not taken: its holder may still renew it.
    assert isinstance(await first.leases.renew(shards, ann, SECONDS), float)
    await expire(first)
    assert isinstance(await second.leases.take(shards, ben, SECONDS), Taken)
    assert await first.leases.renew(shards, ann, SECONDS) == Lost(0, "ben")
    assert await first.leases.give_back(ann) == 0  # nothing of ann's is left to give


async def test_a_process_restarted_under_its_name_takes_its_shards_back_at_once(
    processes: list[Storage],
) -> None:
    """A StatefulSet's pod, or a supervised child, killed outright: its successor of the same
    name need not wait for the leases to run out. A stray of another name must."""
    first, second, third = processes
    killed = Holder.new("tafl-bot-1")
    shards = Shards.of(4, {2, 3})
    assert isinstance(await first.leases.take(shards, killed, SECONDS), Taken)
    stray = await third.leases.take(shards, Holder.new("someone-else"), SECONDS)
    assert isinstance(stray, Held)
    successor = Holder.new("tafl-bot-1")
    taken = await second.leases.take(shards, successor, SECONDS)
    assert isinstance(taken, Taken) and taken.reclaimed == ((2, "tafl-bot-1"), (3, "tafl-bot-1"))
    assert await first.leases.renew(shards, killed, SECONDS) == Lost(2, "tafl-bot-1")


async def test_a_holder_whose_process_is_gone_from_this_machine_is_succeeded_at_once(
    processes: list[Storage],
) -> None:
    """A bot restarted by systemd after a crash: same machine, the old process id gone. On
    another machine (another boot, or another container's process ids) nothing can be told,
    and the successor waits for the lease to run out."""
    first, second, third = processes
    finished = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    await finished.wait()
    crashed = replace(Holder.new(), pid=finished.pid)
    elsewhere = replace(Holder.new(), host="another-machine", pid=finished.pid)
    assert isinstance(await first.leases.take(Shards.of(2, {0}), crashed, SECONDS), Taken)
    assert isinstance(await first.leases.take(Shards.of(2, {1}), elsewhere, SECONDS), Taken)
    taken = await second.leases.take(Shards.of(2, {0}), Holder.new(), SECONDS)
    assert isinstance(taken, Taken) and taken.reclaimed == ((0, crashed.instance),)
    held = await second.leases.take(Shards.of(2, {1}), Holder.new(), SECONDS)
    assert isinstance(held, Held) and held.reason == f"shard 1 is served by {elsewhere.instance}"
    # A lease of 3 s on another machine: the successor waits for it to run out, then serves.
    shards = Shards.of(2, {1})
    await first.leases.give_back(elsewhere)
    started = time.monotonic()  # before the lease is taken: it runs out 3 s after this at least
    assert isinstance(await first.leases.take(shards, elsewhere, 3.0), Taken)
    keeper = LeaseKeeper(third.leases, shards, Holder.new(), seconds=30)
    assert await asyncio.wait_for(keeper.acquire(), 30)
    assert time.monotonic() - started > 2.5, "it did not wait for the lease to run out"


async def test_processes_set_for_another_shard_count_wait_for_the_old_ones(
    processes: list[Storage],
) -> None:
    """Two shard counts at once would put one server in two processes' shards."""
    first, second, _ = processes
    old, new = Holder.new("old"), Holder.new("new")
    assert isinstance(await first.leases.take(Shards.of(2, {0}), old, SECONDS), Taken)
    held = await second.leases.take(Shards.of(4, {3}), new, SECONDS)
    assert isinstance(held, Held)
    assert held.reason == (
        "old serves the bot's servers in 2 shards, and this process is set for 4"
        " (TAFL_SHARD_COUNT): every process of a bot must use the same count"
    )
    await expire(first)
    assert isinstance(await second.leases.take(Shards.of(4, {3}), new, SECONDS), Taken)
    # The run-out leases of the old count are cleared away.
    assert [(count, shard) for count, shard, _, _ in await first.leases.holders()] == [(4, 3)]


async def test_processes_racing_for_one_shard_leave_one_holder(database_target: str) -> None:
    racers = [await Storage.open(database_target) for _ in range(4)]
    try:
        outcomes = await asyncio.gather(
            *(
                storage.leases.take(Shards.of(1, {0}), Holder.new(f"p{n}"), SECONDS)
                for n, storage in enumerate(racers)
            )
        )
        assert sum(isinstance(outcome, Taken) for outcome in outcomes) == 1
        assert len(await racers[0].leases.holders()) == 1
    finally:
        for storage in racers:
            await storage.close()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_keeper_serves_only_while_its_renewals_prove_its_lease(
    processes: list[Storage],
) -> None:
    first, second, _ = processes
    clock = Clock()
    shards = Shards.of(2, {0, 1})
    keeper = LeaseKeeper(first.leases, shards, Holder.new("ann"), seconds=6, clock=clock)
    assert not keeper.valid()
    assert await keeper.acquire()
    assert keeper.valid() and keeper.valid_for() == pytest.approx(6 - 6 / 15)
    # By its own clock, it stops answering before the lease can run out in the database.
    clock.now += 6 - 6 / 15
    assert not keeper.valid()

    # Another process waits for the lease, then takes it once it is given back.
    waiting = LeaseKeeper(second.leases, shards, Holder.new("ben"), seconds=6)
    stop = asyncio.Event()
    acquiring = asyncio.create_task(waiting.acquire(stop))
    await asyncio.sleep(0)
    assert not acquiring.done()
    await keeper.give_back()
    assert await asyncio.wait_for(acquiring, 30)
    assert waiting.valid()

    # The first keeper, renewing, learns at once that it lost its shards.
    lost: list[Lost] = []
    await asyncio.wait_for(keeper.keep(lost.append), 30)
    assert lost == [Lost(0, "ben")] and keeper.lost == Lost(0, "ben") and not keeper.valid()


async def test_a_keeper_stops_waiting_when_asked(processes: list[Storage]) -> None:
    first, second, _ = processes
    shards = Shards.of(1, {0})
    assert isinstance(await first.leases.take(shards, Holder.new("ann"), SECONDS), Taken)
    stop = asyncio.Event()
    waiting = asyncio.create_task(
        LeaseKeeper(second.leases, shards, Holder.new("ben")).acquire(stop)
    )
    await asyncio.sleep(0)
    stop.set()
    assert await asyncio.wait_for(waiting, 30) is False


def one_window_apart(waits: list[float], window: float, elapsed: float) -> bool:
    """Whether the k-th booking (in order of booking) waits k windows less the time that had
    passed since the first: the slots are one window apart, however slow the machine."""
    return all(
        k * window - elapsed - 0.01 <= wait <= k * window + 0.01 for k, wait in enumerate(waits)
    )


async def test_identify_turns_are_shared_by_every_process(processes: list[Storage]) -> None:
    """Discord's 5 s between IDENTIFYs of one bucket hold across processes that share only
    the database; two buckets keep their own turns."""
    first, second, _ = processes
    started = time.monotonic()
    waits = [
        await first.identify_turns.reserve(0, 1, 5.0),
        await second.identify_turns.reserve(2, 1, 5.0),
        await first.identify_turns.reserve(1, 1, 5.0),
    ]
    assert one_window_apart(waits, 5.0, time.monotonic() - started), waits
    started = time.monotonic()
    paired = [
        await storage.identify_turns.reserve(s, 2, 5.0) for storage in processes for s in (0, 1)
    ]
    elapsed = time.monotonic() - started
    assert one_window_apart(paired[0::2], 5.0, elapsed), paired
    assert one_window_apart(paired[1::2], 5.0, elapsed), paired


async def test_turns_booked_at_once_never_share_a_slot(database_target: str) -> None:
    booking = [await Storage.open(database_target) for _ in range(6)]
    try:
        started = time.monotonic()
        waits = await asyncio.gather(
            *(storage.identify_turns.reserve(0, 1, 1.0) for storage in booking)
        )
        elapsed = time.monotonic() - started
    finally:
        for storage in booking:
            await storage.close()
    # Each booking saw the one before it: the slots are one window apart.
    assert one_window_apart(sorted(waits), 1.0, elapsed), waits
