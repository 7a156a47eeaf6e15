"""A member read as an object or a list is an empty one when it is missing or of another kind."""
from __future__ import annotations

import pytest

from viewer.parse.json.fields import list_in, object_in


@pytest.mark.parametrize("written", [None, "text", 3, [1], True])
def test_a_member_that_is_no_object_reads_as_an_empty_object(written):
    assert object_in({"key": written}, "key") == {}
    assert object_in({}, "key") == {}


def test_an_object_member_is_given_as_it_is_and_each_empty_one_is_a_new_one():
    inner = {"a": 1}
    assert object_in({"key": inner}, "key") is inner
    first = object_in({}, "key")
    first["changed"] = True
    assert object_in({}, "key") == {}


@pytest.mark.parametrize("written", [None, "text", 3, {"a": 1}])
def test_a_member_that_is_no_list_reads_as_an_empty_list(written):
    assert list_in({"key": written}, "key") == []


def test_a_list_member_is_given_as_it_is():
    items = [1, 2]
    assert list_in({"key": items}, "key") is items
