import csv


class CsvFormat:
    """comma-separated values with a header row; every value is a string"""

    def read(self, stream):
        return [dict(row) for row in csv.DictReader(stream)]

    def write(self, records, stream):
        fields = []
        for r in records:
            fields += [k for k in r if k not in fields]
        w = csv.DictWriter(stream, fieldnames=fields, lineterminator="\n", restval="")
        w.writeheader()
        for r in records:
            w.writerow(r)
