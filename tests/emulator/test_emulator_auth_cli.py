"""Identities, the token endpoint, the command line and make_client's credential handling."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests
from emulator_support import GM, PLAYER

from sheets_bridge.emulator.auth import generate_service_account
from sheets_bridge.emulator.server import parse_fault
from sheets_bridge.emulator.testing import Emulator, running_emulator
from sheets_bridge.google_http import (
    ENV_API_BASE,
    ApiEndpoints,
    GoogleCredentialsError,
    StrategosClient,
    make_client,
)

ClientFor = Callable[..., StrategosClient]
REPO = Path(__file__).resolve().parents[2]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "sheets_bridge.emulator", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


Starter = Callable[[], tuple[str, "subprocess.Popen[str]"]]


@pytest.fixture
def emulator_process(tmp_path: Path) -> Iterator[tuple[Path, Starter]]:
    """``start()`` runs ``python -m sheets_bridge.emulator --port 0 --state-dir DIR``; all are stopped after."""
    state_dir = tmp_path / "state"
    started: list[subprocess.Popen[str]] = []

    def start() -> tuple[str, subprocess.Popen[str]]:
        env = dict(os.environ, PYTHONPATH=str(REPO))
        proc = subprocess.Popen(
            [sys.executable, "-m", "sheets_bridge.emulator", "--port", "0", "--state-dir", str(state_dir)],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        started.append(proc)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        url = line.strip().rsplit(" ", 1)[-1]
        assert url.startswith("http://127.0.0.1:"), line
        return url, proc

    try:
        yield state_dir, start
    finally:
        for proc in started:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=10)
            if proc.stdout is not None:
                proc.stdout.close()


def test_cli_credentials_state_dir_and_persistence(
    emulator_process: tuple[Path, Starter], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--write-credentials registers through the shared state dir; data survives a restart."""
    state_dir, start = emulator_process
    url, first = start()
    key_file = tmp_path / "gm.json"
    done = _cli("--write-credentials", str(key_file), "--identity", GM, "--base", url, "--state-dir", str(state_dir))
    assert done.returncode == 0, done.stderr
    info = json.loads(key_file.read_text())
    assert info["type"] == "service_account"
    assert info["client_email"] == GM
    assert info["token_uri"] == f"{url}/token"
    assert "BEGIN PRIVATE KEY" in info["private_key"]

    monkeypatch.setenv(ENV_API_BASE, url)
    sh = make_client(key_file).create("Persistent")
    sh.sheet1.update([["kept"]], "A1")
    first.terminate()
    first.wait(timeout=10)

    new_url, _ = start()
    monkeypatch.setenv(ENV_API_BASE, new_url)
    again = make_client(key_file).open_by_key(sh.id)
    assert again.sheet1.acell("A1").value == "kept"


def test_cli_credentials_via_admin_endpoint(emulator: Emulator, tmp_path: Path) -> None:
    """Without --state-dir the public key is POSTed to the running emulator."""
    key_file = tmp_path / "player.json"
    done = _cli("--write-credentials", str(key_file), "--identity", PLAYER, "--base", emulator.base_url)
    assert done.returncode == 0, done.stderr
    gc = make_client(key_file)
    assert gc.create("Via admin").title == "Via admin"
    assert emulator.stats()["by_identity"][PLAYER] >= 2


def test_token_endpoint_checks_signature(emulator: Emulator, tmp_path: Path) -> None:
    """A key whose public half was never registered is refused (invalid_grant).  The identity is
    this test's own: the session's emulator keeps identities across tests (a wipe keeps them), so
    GM may already be registered by a test that ran before on the same worker."""
    rogue = f"rogue-{tmp_path.name}@strategos.example"
    info, _registration = generate_service_account(rogue, emulator.base_url)  # not registered
    key_file = tmp_path / "rogue.json"
    key_file.write_text(json.dumps(info))
    with pytest.raises(GoogleCredentialsError) as err:
        make_client(key_file).create("Nope")
    assert "Google не выдал токен" in str(err.value)
    assert "account not found" in str(err.value)

    emulator.write_credentials(tmp_path / "real.json", rogue)  # it now exists, but with another key
    with pytest.raises(GoogleCredentialsError) as err:
        make_client(key_file).create("Nope")
    assert "Invalid JWT Signature" in str(err.value)


def test_token_endpoint_protocol(emulator: Emulator) -> None:
    """Only the JWT-bearer grant is served; answers are Google-shaped."""
    bad = requests.post(f"{emulator.base_url}/token", data={"grant_type": "password"}, timeout=5)
    assert bad.status_code == 400
    assert bad.json()["error"] == "unsupported_grant_type"
    garbage = requests.post(
        f"{emulator.base_url}/token",
        data={"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": "x.y.z"},
        timeout=5,
    )
    assert garbage.status_code == 400
    assert garbage.json()["error"] == "invalid_grant"


def test_make_client_credential_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Clear Russian errors when the key file is missing or of the wrong kind."""
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
    with pytest.raises(GoogleCredentialsError) as err:
        make_client()
    assert "Нет учётных данных Google" in str(err.value)
    assert "GOOGLE_APPLICATION_CREDENTIALS" in str(err.value)
    with pytest.raises(GoogleCredentialsError, match="не найден"):
        make_client(tmp_path / "absent.json")
    oauth_client = tmp_path / "client_secret.json"
    oauth_client.write_text(json.dumps({"installed": {"client_id": "x"}}))
    with pytest.raises(GoogleCredentialsError, match="make_user_client"):
        make_client(oauth_client)


def test_make_client_uses_env_credentials_and_forces_token_uri(
    emulator: Emulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GOOGLE_APPLICATION_CREDENTIALS is read; a Google token_uri is redirected to the base."""
    key_file = emulator.write_credentials(tmp_path / "gm.json", GM)
    info = json.loads(key_file.read_text())
    info["token_uri"] = "https://oauth2.googleapis.com/token"
    key_file.write_text(json.dumps(info))
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(key_file))
    gc = make_client()
    assert gc.http_client.auth._token_uri == f"{emulator.base_url}/token"
    assert gc.create("From env").title == "From env"


def test_endpoints_follow_the_environment() -> None:
    """Unset = real Google, untouched URLs; set = every Google URL mapped onto the base."""
    google = ApiEndpoints.from_env({})
    assert google.base is None
    assert google.sheets == "https://sheets.googleapis.com/v4/spreadsheets"
    assert google.drive == "https://www.googleapis.com/drive/v3/files"
    assert google.token == "https://oauth2.googleapis.com/token"
    url = "https://sheets.googleapis.com/v4/spreadsheets/ID/values/A1"
    assert google.rewrite(url) == url
    local = ApiEndpoints.from_env({ENV_API_BASE: "http://127.0.0.1:8765/"})
    assert local.rewrite(url) == "http://127.0.0.1:8765/v4/spreadsheets/ID/values/A1"
    assert local.rewrite("https://www.googleapis.com/drive/v3/files/ID/copy") == (
        "http://127.0.0.1:8765/drive/v3/files/ID/copy"
    )
    assert local.rewrite("https://www.googleapis.com/upload/drive/v2/files/ID") == (
        "http://127.0.0.1:8765/upload/drive/v2/files/ID"
    )
    assert local.token == "http://127.0.0.1:8765/token"


def test_fail_on_option_numbers_requests(tmp_path: Path) -> None:
    """--fail-on N:KIND hits exactly the N-th counted request (admin calls are not counted)."""
    assert parse_fault("7:500") == (7, "500")
    assert parse_fault("+2:drop-after", current=5) == (7, "drop-after")
    with pytest.raises(ValueError, match="unknown fault kind"):
        parse_fault("3:teapot")
    with running_emulator(fail_on=["2:503"]) as emu:
        key = emu.write_credentials(tmp_path / "k.json", GM)
        token = requests.post(
            f"{emu.base_url}/token",
            data={"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": _assertion(key, emu)},
            timeout=5,
        ).json()["access_token"]
        headers = {"Authorization": f"Bearer {token}"}
        second = requests.get(f"{emu.base_url}/drive/v3/files", headers=headers, timeout=5)
        third = requests.get(f"{emu.base_url}/drive/v3/files", headers=headers, timeout=5)
        assert (second.status_code, third.status_code) == (503, 200)
        assert second.json()["error"]["status"] == "UNAVAILABLE"
        stats = emu.stats()
        assert [(r["n"], r["endpoint"], r["status"]) for r in stats["requests"]] == [
            (1, "oauth.token", 200),
            (2, "drive.files.list", 503),
            (3, "drive.files.list", 200),
        ]


def _assertion(key_file: Path, emu: Emulator) -> str:
    from google.auth import crypt, jwt

    info = json.loads(key_file.read_text())
    signer = crypt.RSASigner.from_service_account_info(info)
    now = int(time.time())
    payload = {
        "iss": info["client_email"],
        "aud": f"{emu.base_url}/token",
        "iat": now,
        "exp": now + 600,
        "scope": "https://www.googleapis.com/auth/spreadsheets",
    }
    return jwt.encode(signer, payload).decode()


def test_make_user_client_needs_client_secrets(tmp_path: Path) -> None:
    """The OAuth user flow cannot start without the OAuth client file (no browser in tests)."""
    from sheets_bridge.google_http import make_user_client

    with pytest.raises(GoogleCredentialsError, match="OAuth-клиента"):
        make_user_client(tmp_path / "client_secret.json", tmp_path / "token.json")
