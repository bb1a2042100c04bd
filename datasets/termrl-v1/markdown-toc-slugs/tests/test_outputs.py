import subprocess
import textwrap


def toc(tmp_path, text):
    p = tmp_path / "doc.md"
    p.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    r = subprocess.run(["python3", "/app/toc.py", str(p)], capture_output=True, text=True, timeout=20)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_readme():
    r = subprocess.run(["python3", "/app/toc.py", "/app/README.md"], capture_output=True, text=True, timeout=20)
    assert r.stdout == (
        "- [Project Title](#project-title)\n"
        "  - [Getting Started](#getting-started)\n"
        "    - [Install (v2.0)](#install-v20)\n"
        "  - [Getting Started](#getting-started-1)\n"
        "  - [config.yaml & Options!](#configyaml--options)\n"
    )


def test_relative_indent(tmp_path):
    out = toc(tmp_path, """
        ### Deep start
        #### Deeper
        ### Back
        ###### Six
        """)
    assert out == ("- [Deep start](#deep-start)\n  - [Deeper](#deeper)\n- [Back](#back)\n"
                   "      - [Six](#six)\n")


def test_duplicates_and_suffix_collisions(tmp_path):
    out = toc(tmp_path, """
        # A
        # A
        # A-1
        # A
        # A
        """)
    assert out == "- [A](#a)\n- [A](#a-1)\n- [A-1](#a-1-1)\n- [A](#a-2)\n- [A](#a-3)\n"


def test_fences_and_non_headings(tmp_path):
    out = toc(tmp_path, """
        Text
        ~~~
        # hidden
        ```
        # still hidden (inside ~~~ block)
        ~~~
        ## Shown ##
        #nospace
         # indented
        ####### seven
        ```python
        ## hidden too
        ```
        ## Last one #hash#
        """)
    assert out == "- [Shown](#shown)\n- [Last one #hash#](#last-one-hash)\n"


def test_slug_characters(tmp_path):
    out = toc(tmp_path, """
        ## Héllo, Wörld: `x_y` -- 100%
        ## Tabs	and  double  spaces
        """)
    assert out == ("- [Héllo, Wörld: x_y -- 100%](#hllo-wrld-x_y----100)\n"
                   "- [Tabs\tand  double  spaces](#tabsand--double--spaces)\n")


def test_no_headings(tmp_path):
    assert toc(tmp_path, "just text\n\n```\n# code\n```\n") == ""
