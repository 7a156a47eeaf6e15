"""One unit for sizes everywhere: bytes below a KiB, then KiB, MiB, GiB with one decimal."""
from __future__ import annotations

import pytest

from viewer.present.wording import human_size


@pytest.mark.parametrize("size, said", [(0, "0 bytes"), (1, "1 byte"), (1023, "1,023 bytes"), (1024, "1 KiB"),
                                        (11_112, "10.9 KiB"), (1_048_576, "1 MiB"), (3_565_158, "3.4 MiB"),
                                        (5 * 2**30, "5 GiB"), (None, "")])
def test_a_size_is_said_in_one_unit(size, said):
    assert human_size(size) == said
