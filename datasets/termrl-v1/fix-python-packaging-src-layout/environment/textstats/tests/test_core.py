from textstats.core import top_words


def test_top():
    assert top_words("the cat and the cat", 1) == [("cat", 2)]
