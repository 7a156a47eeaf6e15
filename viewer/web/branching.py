"""Choosing a branch of a tree-shaped conversation: the `branch` argument names a message, and the reading follows
the branches that lead to it (viewer/model/branches.py: the one function that decides which messages are aside).

The debug view takes a choice for every tree; its switcher on each message that starts one of a fork's branches
("edited, 2 / 3") is a plain link per branch (each branch has its URL), which htmx follows by swapping the
transcript region, and a link to compare the branch shown with the one before it.

The default view takes a choice only where the producer's app showed a version switcher (its record's
`versions`: a chat app's edited questions and regenerated answers), and draws the same "‹ 1/2 ›" where the app
did. Without a choice it shows the app's branch from the rows and ranks decided at upload. With one it reads the
rows by number, leaves out those of the branches not followed, and asks the policy of each message of the
followed branches that the upload stored aside (`policy.rule_on_branch`: the table as if that branch were the
app's). So a branch switch shows what the user saw of that version and nothing the policy hides on any branch."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import abort, request, url_for

from viewer import formats
from viewer.model.branches import Fork, aside_for, followed, forks_in
from viewer.model.words import DEBUG
from viewer.store import Record

BRANCH_ARG = "branch"
KINDS = {"user": "edited", "assistant": "regenerated"}


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
    shown: dict[int, int] | None = None
    """Fork parent → the branch the app showed there (read when a reader chose another: each version's name says
    which is the app's)."""

    def app_branch(self, fork: Fork) -> int | None:
        """The branch of `fork` that the app showed."""
        return (self.shown if self.shown is not None else self.following).get(fork.parent)


@dataclass(frozen=True, slots=True)
class Switch:
    """What a branch's first message shows in the debug view: which of its fork's branches it is, and the links
    to the others."""

    kind: str
    """"edited", "regenerated" or "forked"."""
    number: int
    """Its place among the branches, from 1."""
    links: tuple[tuple[int, str, bool], ...]
    """(number, URL, whether it is the one shown) of each branch."""
    compare_url: str | None
    """The compare page of this branch and the one before it (or after it, for the first)."""


@dataclass(frozen=True, slots=True)
class Versions:
    """The default view's "‹ 1/2 ›" at a fork the app offered: which version is shown, the way to the others."""

    fork: int
    """The fork's parent (unique on the page: it names the switcher)."""
    kind: str
    number: int
    count: int
    previous: tuple[str, int] | None
    """(URL, first message) of the version before, if any."""
    next: tuple[str, int] | None
    app_shown: bool
    """Whether this is the version the app showed."""


def offers_versions(record: Record) -> bool:
    """Whether the default view of `record` takes a branch and draws version switchers: its producer's app did."""
    found = formats.find(record.dialect)
    return found is not None and found.versions and bool(forks_in(record.header))


def requested_branch(record: Record, allowed: bool) -> int | None:
    """The message a reader asked to follow: 404 for one that is no message of this transcript; None when this
    view takes no choice (`allowed` false: the default view of a tree whose app showed no switcher)."""
    value = request.args.get(BRANCH_ARG)
    if value is None or value == "" or not allowed:
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
    app = followed(forks, stored_aside)
    aside = aside_for(forks, parents, parents.keys() | {chosen}, chosen, app)
    return Branches(forks, frozenset(aside), chosen, followed(forks, aside), app)


def switch_for(branches: Branches, record: Record, index: int, role: str) -> Switch | None:
    """The debug view's switcher of message `index` (of `role`) when it starts one of a fork's branches."""
    for fork in branches.forks:
        if index not in fork.branches:
            continue
        number = fork.branches.index(index) + 1
        shown = branches.following.get(fork.parent)
        links = tuple((place, _branch_url(record, other, DEBUG), other == shown)
                      for place, other in enumerate(fork.branches, start=1))
        other = fork.branches[number - 2] if number > 1 else fork.branches[1]
        return Switch(_kind(role), number, links, _compare_url(record, other, index))
    return None


def versions_at(branches: Branches, record: Record, index: int, role: str, previous: int | None) -> list[Versions]:
    """The default view's switchers drawn on the shown message `index` (of `role`), the first shown after message
    `previous`: one for each fork whose followed branch begins after `previous`, at or before `index` (a branch may
    begin with a message the view hides, such as the reasoning before a regenerated answer)."""
    found = []
    for fork in branches.forks:
        follow = branches.following.get(fork.parent)
        if follow is None or follow > index or (previous is not None and follow <= previous):
            continue
        number = fork.branches.index(follow) + 1
        at = lambda place: ((_branch_url(record, fork.branches[place - 1], None), fork.branches[place - 1])  # noqa: E731
                            if 1 <= place <= len(fork.branches) else None)
        found.append(Versions(fork.parent, _kind(role), number, len(fork.branches), at(number - 1), at(number + 1),
                              follow == branches.app_branch(fork)))
    return found


def version_name(branches: Branches | None, other: Branches | None, role_of: dict[int, str]) -> str | None:
    """A compared branch's name, "Version 1 (edited)" or "Version 2 (shown)": its number at the first fork where
    it and the `other` side part, and whether the app showed it (else how it came: edited or regenerated)."""
    if branches is None or other is None:
        return None
    for fork in branches.forks:
        mine, theirs = branches.following.get(fork.parent), other.following.get(fork.parent)
        if mine is None or theirs is None or mine == theirs:
            continue
        how = "shown" if mine == branches.app_branch(fork) else _kind(role_of.get(mine, ""))
        return f"Version {fork.branches.index(mine) + 1} ({how})"
    return None


def _kind(role: str) -> str:
    return KINDS.get(role, "forked")


def _branch_url(record: Record, branch: int, view: str | None) -> str:
    args: dict[str, Any] = {"k": record.conversation} if record.conversation is not None else {}
    return (url_for("reading.transcript", id=record.owner_id, view=view, branch=branch, at=branch, **args)
            + f"#m-{branch}")


def _compare_url(record: Record, left: int, right: int) -> str:
    """Two branches of this conversation side by side, as the compare page names them (`<id>[.<k>]@<branch>`)."""
    named = record.owner_id if record.conversation is None else f"{record.owner_id}.{record.conversation}"
    return url_for("compare.compare", a=f"{named}@{left}", b=f"{named}@{right}", view=DEBUG)
