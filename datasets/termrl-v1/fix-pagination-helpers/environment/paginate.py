"""Pagination helpers used by the web front-end.

Pages are numbered from 1.
"""


def page_count(total_items, per_page):
    """Number of pages needed to show ``total_items`` items, ``per_page`` per page.

    Zero items still give one (empty) page. ``per_page`` must be >= 1, otherwise
    ``ValueError`` is raised.
    """
    if per_page < 1:
        raise ValueError("per_page must be >= 1")
    return max(1, total_items // per_page)


def page_slice(items, page, per_page):
    """Return the items shown on page ``page`` (1-based) as a new list.

    A page number outside 1..page_count raises ``IndexError``.
    """
    pages = page_count(len(items), per_page)
    if page < 0 or page > pages:
        raise IndexError(page)
    start = page * per_page
    return items[start:start + per_page]


def page_window(current, total_pages, width=5):
    """Page numbers to show in the navigation bar.

    Returns a list of at most ``width`` consecutive page numbers that contains
    ``current``, is centred on it where possible (extra slot goes after the
    current page when ``width`` is even) and never goes outside 1..total_pages.
    """
    half = width // 2
    start = current - half
    end = start + width - 1
    if start < 1:
        start = 1
    if end > total_pages:
        end = total_pages
    return list(range(start, end))
