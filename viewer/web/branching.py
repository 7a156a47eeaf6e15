"""Choosing a branch of a tree-shaped conversation in the debug view: the `branch` argument names a message, and
the reading follows the branches that lead to it (viewer/model/branches.py: the one function that decides which
messages are aside). The default view always follows the branch the app showed: its rows, ranks and every
answer built on them never change with a reader's choice, so nothing aside can reach it.

On each message that starts one of a fork's branches the debug view draws a switcher ("edited, 2 / 3"): a
plain link per branch (each branch has its URL), which htmx follows by swapping the transcript region, and a
link to compare the branch shown with the one before it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import abort, request, url_for

from viewer.model.branches import Fork, aside_for, followed, forks_in
from viewer.model.words import DEBUG
from viewer.store import Record

BRANCH_ARG = "branch"


@dataclass(frozen=True, slots=True)
class Branches:
    """A conversation's forks, and which branch this reading follows at each."""

    forks: tuple[Fork, ...]
    aside: frozenset[int]
    """The messages a branch the reader chose leaves aside (none read when the reader chose none: the view then
    shows every branch)."""
    chosen: int | None
    """The message the reader asked to follow (None: the app's branch)."""
    following: dict[int, int]
    """Fork parent → the branch followed there."""


@dataclass(frozen=True, slots=True)
class Switch:
    """What a branch's first message shows: which of its fork's branches it is, and the links to the others."""

    kind: str
    """"edited", "regenerated" or "forked"."""
    number: int
    """Its place among the branches, from 1."""
    links: tuple[tuple[int, str, bool], ...]
    """(number, URL, whether it is the one shown) of each branch."""
    compare_url: str | None
    """The compare page of this branch and the one before it (or after it, for the first)."""


def requested_branch(record: Record, debug: bool) -> int | None:
    """The message a debug-view reader asked to follow: 404 for one that is no message of this transcript; the
    default view takes no choice (it shows what the app showed)."""
    value = request.args.get(BRANCH_ARG)
    if value is None or value == "" or not debug:
        return None
    if not value.isdigit() or int(value) >= record.message_count:
        abort(404, "This conversation has no message with that number to follow.")
    return int(value)


def branches_of(record: Record, store, chosen: int | None) -> Branches | None:
    """The forks of `record` and the branches a reading that asks for `chosen` follows; None without forks."""
    forks = tuple(forks_in(record.header))
    if not forks:
        return None
    if chosen is None:  # the app's branches: the stored rows of the forks' branches say which are followed
        _, stored_aside = store.tree(record.id, {branch for fork in forks for branch in fork.branches})
        return Branches(forks, frozenset(), None, followed(forks, stored_aside))
    parents, stored_aside = store.tree(record.id)  # every link: a big session's debug view pays this on a choice only
    aside = aside_for(forks, parents, parents.keys() | {chosen}, chosen, followed(forks, stored_aside))
    return Branches(forks, frozenset(aside), chosen, followed(forks, aside))


def switch_for(branches: Branches, record: Record, index: int, role: str) -> Switch | None:
    """The switcher of message `index` (of `role`) when it starts one of a fork's branches; else None."""
    for fork in branches.forks:
        if index not in fork.branches:
            continue
        number = fork.branches.index(index) + 1
        shown = branches.following.get(fork.parent)
        links = tuple((place, _branch_url(record, other), other == shown)
                      for place, other in enumerate(fork.branches, start=1))
        other = fork.branches[number - 2] if number > 1 else fork.branches[1]
        return Switch(_kind(role), number, links, _compare_url(record, other, index))
    return None


def _kind(role: str) -> str:
    return {"user": "edited", "assistant": "regenerated"}.get(role, "forked")


def _branch_url(record: Record, branch: int) -> str:
    args: dict[str, Any] = {"k": record.conversation} if record.conversation is not None else {}
    return url_for("reading.transcript", id=record.owner_id, view=DEBUG, branch=branch, **args) + f"#m-{branch}"


def _compare_url(record: Record, left: int, right: int) -> str:
    """Two branches of this conversation side by side, as the compare page names them (`<id>[.<k>]@<branch>`)."""
    named = record.owner_id if record.conversation is None else f"{record.owner_id}.{record.conversation}"
    return url_for("compare.compare", a=f"{named}@{left}", b=f"{named}@{right}", view=DEBUG)
