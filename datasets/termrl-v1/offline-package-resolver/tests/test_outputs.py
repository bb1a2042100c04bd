import subprocess

import pytest

TOOL = "/app/aptsolve"
GIVEN = {'webapp': (0, ['libapr1 1.7.2-3', 'apache2-mini 2.4.57-2', 'libssl3 3.0.11-1', 'python3 3.11.2-1', 'webapp 2.0-1']), 'nginx-light webapp': (0, ['libssl3 3.0.11-1', 'nginx-common 1.22.1-9', 'nginx-light 1.22.1-9', 'python3 3.11.2-1', 'webapp 2.0-1']), 'mailer': (0, ['mailer 1.0-1']), 'tool-x': (1, ['UNSATISFIABLE']), 'monitor': (0, ['agent 1.0-1', 'monitor 3.0-1']), 'libssl3 monitor': (0, ['libssl3 3.0.11-1', 'agent-ng 2.0-1', 'monitor 3.0-1']), 'webapp-legacy': (1, ['UNSATISFIABLE']), 'zlib1g': (0, []), 'nginx-common': (0, ['nginx-common 1.22.1-10~bpo1']), 'webapp apache2-mini exim-lite': (1, ['UNSATISFIABLE'])}

HIDDEN_REPO = 'Package: a\nVersion: 1\nDepends: b | c,\n  d\n\nPackage: b\nVersion: 1\nDepends: e (>= 2)\n\nPackage: c\nVersion: 1\n\nPackage: d\nVersion: 2\nConflicts: c\n\nPackage: d\nVersion: 1\n\nPackage: e\nVersion: 2\nConflicts: d\n\nPackage: e\nVersion: 1\n\nPackage: x\nVersion: 1.0\nDepends: vpkg (>= 1)\n\nPackage: y\nVersion: 3\nProvides: vpkg\n\nPackage: z\nVersion: 1:0.1\nDepends: vpkg\n\nPackage: w\nVersion: 0.9\nProvides: vpkg\n\nPackage: k\nVersion: 1.0~rc2\n\nPackage: k\nVersion: 1.0~rc10\n\nPackage: k\nVersion: 1.0\n\nPackage: m\nVersion: 1\nDepends: k (<< 1.0), n (>= 2:0)\n\nPackage: n\nVersion: 1:9\n\nPackage: n\nVersion: 2:0.1\n'
HIDDEN_STATUS = 'Package: base\nStatus: install ok installed\nVersion: 1\n'
HIDDEN = {'a': (0, ['c 1', 'd 1', 'a 1']), 'x': (1, ['UNSATISFIABLE']), 'z': (0, ['w 0.9', 'z 1:0.1']), 'k': (0, ['k 1.0']), 'm': (0, ['k 1.0~rc10', 'n 2:0.1', 'm 1']), 'm k': (0, ['k 1.0~rc10', 'n 2:0.1', 'm 1']), 'y z': (0, ['y 3', 'z 1:0.1'])}


def run(repo, status, q):
    r = subprocess.run([TOOL, "--repo", str(repo), "--status", str(status), *q.split()],
                       capture_output=True, text=True, timeout=60)
    return (r.returncode, r.stdout.splitlines())


@pytest.mark.parametrize("q", ["webapp", "nginx-light webapp"])
def test_backtracks_to_stable_webapp(q):
    assert run("/app/repo/Packages", "/app/repo/status", q) == tuple(GIVEN[q])


@pytest.mark.parametrize("q", ["mailer", "tool-x", "zlib1g", "webapp apache2-mini exim-lite"])
def test_installed_packages_are_fixed(q):
    assert run("/app/repo/Packages", "/app/repo/status", q) == tuple(GIVEN[q])


@pytest.mark.parametrize("q", ["monitor", "libssl3 monitor", "webapp-legacy", "nginx-common"])
def test_alternatives_conflicts_versions(q):
    assert run("/app/repo/Packages", "/app/repo/status", q) == tuple(GIVEN[q])


@pytest.fixture(scope="module")
def hidden(tmp_path_factory):
    d = tmp_path_factory.mktemp("repo")
    (d / "Packages").write_text(HIDDEN_REPO)
    (d / "status").write_text(HIDDEN_STATUS)
    return d


@pytest.mark.parametrize("q", ['a', 'x', 'z', 'k', 'm', 'm k', 'y z'])
def test_hidden_repository(hidden, q):
    assert run(hidden / "Packages", hidden / "status", q) == tuple(HIDDEN[q])
