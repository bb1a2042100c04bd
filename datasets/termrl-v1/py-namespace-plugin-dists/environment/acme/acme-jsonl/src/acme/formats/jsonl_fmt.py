import json
from pathlib import Path

# output settings shipped with the plugin (package data)
_SETTINGS = json.loads((Path(__file__).parent / "jsonl_data" / "settings.json").read_text(encoding="utf-8"))


class JsonlFormat:
    """one JSON object per line; values become strings"""

    def read(self, stream):
        out = []
        for line in stream:
            line = line.strip()
            if line:
                out.append({k: ("" if v is None else str(v)) for k, v in json.loads(line).items()})
        return out

    def write(self, records, stream):
        for r in records:
            stream.write(json.dumps(r, ensure_ascii=_SETTINGS["ensure_ascii"],
                                    separators=tuple(_SETTINGS["separators"])) + "\n")
