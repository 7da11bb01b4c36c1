import unittest

from spans import merge, total_length


class MergeTests(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(merge([]), [])

    def test_overlapping_spans_merge(self):
        self.assertEqual(merge([(1, 4), (2, 6)]), [(1, 6)])
        self.assertEqual(merge([(0, 10), (2, 3), (4, 12)]), [(0, 12)])

    def test_disjoint_spans_stay_apart(self):
        self.assertEqual(merge([(1, 2), (5, 7)]), [(1, 2), (5, 7)])

    def test_touching_spans_merge(self):
        self.assertEqual(merge([(1, 3), (3, 5)]), [(1, 5)])
        self.assertEqual(merge([(0, 1), (1, 2), (2, 3)]), [(0, 3)])
        self.assertEqual(len(merge([(0, 2), (2, 4), (6, 8)])), 2)

    def test_unsorted_input(self):
        self.assertEqual(merge([(5, 8), (1, 6)]), [(1, 8)])
        self.assertEqual(merge([(9, 10), (0, 1)]), [(0, 1), (9, 10)])


class TotalLengthTests(unittest.TestCase):
    def test_total_length(self):
        self.assertEqual(total_length([(0, 10), (5, 15)]), 15)


if __name__ == "__main__":
    unittest.main()
