import io

from acme.formats.csv_fmt import CsvFormat


def test_roundtrip():
    recs = [{"a": "1", "b": "x,y"}]
    out = io.StringIO()
    CsvFormat().write(recs, out)
    assert CsvFormat().read(io.StringIO(out.getvalue())) == recs
