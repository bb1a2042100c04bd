"""/app/vcards.py on vCard files generated here (2.1 / 3.0 / 4.0 exports in several encodings) and on
hand-made edge cases; the expected JSON is the generated contacts themselves."""
import json
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import vcfgen  # noqa: E402

TOOL = "/app/vcards.py"
RNG = random.Random(random.getrandbits(64))


def run(files):
    r = subprocess.run(["python3", TOOL, *map(str, files)], capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    try:
        return json.loads(r.stdout.decode("utf-8"))
    except ValueError as e:
        raise AssertionError(f"stdout is not a JSON document: {e}: {r.stdout[:300]!r}")


def compare(got, want):
    assert isinstance(got, list), type(got)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"contact {i}:\n got      {g}\n expected {w}"
    assert len(got) == len(want), f"{len(got)} contacts, expected {len(want)}"


def generated(tmp_path, n_files, version=None, enc=None):
    files, want = [], []
    for i in range(n_files):
        data, exp = vcfgen.vcf_file(RNG, [vcfgen.contact(RNG) for _ in range(RNG.randint(1, 6))], version, enc)
        f = tmp_path / f"export{i:02d}.vcf"
        f.write_bytes(data)
        files.append(f)
        want += exp
    return files, want


def test_vcard21_exports(tmp_path):
    files, want = generated(tmp_path, 4, "2.1")
    compare(run(files), want)


def test_vcard30_and_40_exports(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, wa = generated(tmp_path / "a", 3, "3.0")
    b, wb = generated(tmp_path / "b", 3, "4.0")
    compare(run(a + b), wa + wb)


def test_many_files_in_argument_order(tmp_path):
    files, want = generated(tmp_path, 8)
    order = list(range(len(files)))
    RNG.shuffle(order)
    per_file = [run([f]) for f in files]
    compare(run([files[i] for i in order]), [c for i in order for c in per_file[i]])
    compare([c for p in per_file for c in p], want)


def test_same_cards_in_every_encoding(tmp_path):
    contacts = [vcfgen.contact(RNG) for _ in range(4)]
    seed = RNG.getrandbits(32)
    outs = []
    for enc in ("utf-8", "utf-8-sig", "utf-16", "utf-16-be-bom"):
        data, want = vcfgen.vcf_file(random.Random(seed), contacts, "3.0", enc)
        f = tmp_path / f"{enc}.vcf"
        f.write_bytes(data)
        outs.append(run([f]))
        compare(outs[-1], want)


def write(tmp_path, name, text, enc="utf-8"):
    f = tmp_path / name
    f.write_bytes(text.replace("\n", "\r\n").encode(enc))
    return f


def test_quoted_printable_soft_breaks_and_charsets(tmp_path):
    f = write(tmp_path, "qp.vcf", "BEGIN:VCARD\nVERSION:2.1\n"
              "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Ren=C3=\n=A9e;Jos=C3=A9 Mar=\n=C3=ADa;;;\n"
              "FN;CHARSET=ISO-8859-1;QUOTED-PRINTABLE:Jos=E9 Mar=EDa=20=\n Ren=E9e\n"
              "ORG;ENCODING=QUOTED-PRINTABLE;CHARSET=WINDOWS-1252:Caf=E9 =80uro=3B Dept=2E 4\n"
              "NOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:first line=0D=0A=\n second=3A =E2=82=AC 5=\n=3D five\n"
              "TEL;CELL;PREF;VOICE:+49 (30) 555-0100\n"
              "END:VCARD\n")
    compare(run([f]), [{"name": "José María  Renée", "given": "José María", "family": "Renée", "org": "Café €uro",
                         "emails": [], "phones": [{"number": "+49305550100", "types": ["cell", "voice"]}],
                         "note": "first line\n second: € 5= five", "birthday": ""}])


def test_escapes_groups_params_and_folding(tmp_path):
    f = write(tmp_path, "esc.vcf", "begin:VCARD\nVERSION:3.0\n"
              "item1.N:O\\;Brien\\, Jr.;Ann\\\\Marie;;;\n"
              "FN:\n"
              "ORG:Smith\\, Jones \\& Co\\; Ltd;Sales\\;EMEA\n"
              "NOTE:tab\\there\\Nnext line\\nthird\\\\n \\; done\n"
              "item2.EMAIL;type=INTERNET;type=pref: Ann@Example.ORG \n"
              "EMAIL;TYPE=\"home,internet\":ann@example.org\n"
              "EMAIL:second@exam\n\tple.org\n"
              "TEL;TYPE=\"work,voice\";TYPE=FAX:0171/555\n 12-34\n"
              "TEL;VALUE=uri;TYPE=cell:tel:+1-555-010-9999\n"
              "TEL:555 0000\n"
              "BDAY:--0229\n"
              "X-SOCIAL;TYPE=x:https://example.org/a:b\n"
              "END:vcard\n"
              "\nBEGIN:VCARD\nVERSION:4.0\nN:;;;;\nFN:Only\\, Display\nBDAY:19991231\nEND:VCARD\n")
    compare(run([f]), [
        {"name": "Ann\\Marie O;Brien, Jr.", "given": "Ann\\Marie", "family": "O;Brien, Jr.", "org": "Smith, Jones \\& Co; Ltd",
         "emails": ["Ann@Example.ORG", "second@example.org"],
         "phones": [{"number": "0171555123" + "4", "types": ["fax", "voice", "work"]},
                    {"number": "+15550109999", "types": ["cell"]}, {"number": "5550000", "types": []}],
         "note": "tab\\there\nnext line\nthird\\n ; done", "birthday": "--02-29"},
        {"name": "Only, Display", "given": "", "family": "", "org": "", "emails": [], "phones": [], "note": "",
         "birthday": "1999-12-31"}])
