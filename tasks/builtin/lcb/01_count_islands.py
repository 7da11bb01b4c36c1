# id: ib_lcb_01
# entry_point: count_islands
# ---- prompt ----
from typing import List


def count_islands(grid: List[str]) -> int:
    """ Count the islands in a map. The map is a list of equal-length rows; '#' is land and
    '.' is water. Two land cells belong to the same island when they touch horizontally or
    vertically (not diagonally). An empty map has no islands.

    >>> count_islands(["#..", ".#.", "..#"])
    3
    >>> count_islands(["##", "##"])
    1
    """

# ---- solution ----
from typing import List


def count_islands(grid: List[str]) -> int:
    seen = set()
    islands = 0
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell != "#" or (r, c) in seen:
                continue
            islands += 1
            stack = [(r, c)]
            seen.add((r, c))
            while stack:
                y, x = stack.pop()
                for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                    if 0 <= ny < len(grid) and 0 <= nx < len(grid[ny]) and grid[ny][nx] == "#" and (ny, nx) not in seen:
                        seen.add((ny, nx))
                        stack.append((ny, nx))
    return islands

# ---- test ----
def check(candidate):
    assert candidate(["#..", ".#.", "..#"]) == 3
    assert candidate(["##", "##"]) == 1
    assert candidate([]) == 0
    assert candidate(["...", "..."]) == 0
    assert candidate(["#.#.#", "#.#.#", "#####"]) == 1
    assert candidate(["#.#", "...", "#.#"]) == 4
    assert candidate(["##..##", "#....#", "..##..", "#....#"]) == 5
    assert candidate(["#"]) == 1
