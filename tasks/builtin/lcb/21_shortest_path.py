# id: ib_lcb_21
# entry_point: shortest_path
# ---- prompt ----
from typing import List, Optional


def shortest_path(grid: List[str]) -> Optional[int]:
    """ The grid has one 'S' (start) and one 'E' (end); '.' is open and '#' is a wall. Moving one
    cell up, down, left or right costs one step. Return the fewest steps from S to E, or None
    when E cannot be reached.

    >>> shortest_path(["S.E"])
    2
    >>> shortest_path(["S#E"]) is None
    True
    """

# ---- solution ----
from collections import deque
from typing import List, Optional


def shortest_path(grid: List[str]) -> Optional[int]:
    start = next((r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == "S")
    queue = deque([(start, 0)])
    seen = {start}
    while queue:
        (r, c), steps = queue.popleft()
        if grid[r][c] == "E":
            return steps
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nr < len(grid) and 0 <= nc < len(grid[nr]) and grid[nr][nc] != "#" and (nr, nc) not in seen:
                seen.add((nr, nc))
                queue.append(((nr, nc), steps + 1))
    return None

# ---- test ----
def check(candidate):
    assert candidate(["S.E"]) == 2
    assert candidate(["S#E"]) is None
    assert candidate(["SE"]) == 1
    assert candidate(["S..", "##.", "E.."]) == 6
    assert candidate(["S.#", ".##", "..E"]) == 4
    assert candidate(["S....", "####.", "E....", ".####"]) == 10
    assert candidate(["S#.", "##.", "..E"]) is None
