"""The worker's turns (service/ops/worker.py): one request computes at a time, strictly in the order
the requests came, and a request given up while it waits neither keeps its place nor loses the turn."""

from __future__ import annotations

import gevent
import pytest

from service.ops.worker import Turns


def test_turns_go_in_the_order_they_were_asked_for_even_against_one_who_asks_again_at_once() -> None:
    """A kept-alive client whose next request is already there asks for a turn again the moment its
    turn ends, without yielding: it must go behind those already waiting (gevent's Semaphore would
    let it go first, again and again)."""
    turns, order = Turns(), []

    def greedy() -> None:
        with turns:
            order.append("greedy-1")
            gevent.sleep(0.05)
        with turns:
            order.append("greedy-2")

    def take(name: str) -> None:
        with turns:
            order.append(name)

    first = gevent.spawn(greedy)
    gevent.sleep(0.01)  # greedy holds the turn
    waiters = [gevent.spawn(take, f"waiter-{i}") for i in range(3)]
    gevent.joinall([first, *waiters], timeout=5, raise_error=True)
    assert order == ["greedy-1", "waiter-0", "waiter-1", "waiter-2", "greedy-2"]
    assert not turns.taken and not turns.waiting


def test_a_waiter_given_up_leaves_its_place_to_the_next() -> None:
    turns, order = Turns(), []

    def take(name: str) -> None:
        with turns:
            order.append(name)
            gevent.sleep(0.02)

    holder = gevent.spawn(take, "holder")
    gevent.sleep(0.005)
    quitter, patient = gevent.spawn(take, "quitter"), gevent.spawn(take, "patient")
    gevent.sleep(0.005)
    quitter.kill(gevent.Timeout(), block=True)  # as a request's deadline would
    gevent.joinall([holder, patient], timeout=5, raise_error=True)
    assert order == ["holder", "patient"]
    assert not turns.taken and not turns.waiting


def test_an_error_in_a_turn_ends_the_turn() -> None:
    turns = Turns()
    with pytest.raises(ZeroDivisionError), turns:
        1 / 0  # noqa: B018
    assert not turns.taken
