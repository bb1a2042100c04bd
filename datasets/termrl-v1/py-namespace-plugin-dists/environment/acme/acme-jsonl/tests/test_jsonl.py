import io

from acme.formats.jsonl_fmt import JsonlFormat


def test_roundtrip():
    recs = [{"a": "1", "b": "é"}]
    out = io.StringIO()
    JsonlFormat().write(recs, out)
    assert out.getvalue() == '{"a":"1","b":"é"}\n'
    assert JsonlFormat().read(io.StringIO(out.getvalue())) == recs
