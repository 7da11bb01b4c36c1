import unittest

from spans import merge, total_length


class MergeTests(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(merge([]), [])

    def test_overlapping_spans_merge(self):
        self.assertEqual(merge([(1, 4), (2, 6)]), [(1, 6)])

    def test_disjoint_spans_stay_apart(self):
        self.assertEqual(merge([(1, 2), (5, 7)]), [(1, 2), (5, 7)])


class TotalLengthTests(unittest.TestCase):
    def test_total_length(self):
        self.assertEqual(total_length([(0, 10), (5, 15)]), 15)


if __name__ == "__main__":
    unittest.main()
