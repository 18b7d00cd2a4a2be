"""Service-account identities and the OAuth token endpoint.

The emulator plays Google's ``oauth2.googleapis.com/token`` for the JWT-bearer grant that
google-auth uses with service-account keys: the client signs a JWT with the private key of
its JSON key file, the emulator checks the RS256 signature against the public key that was
registered for that ``client_email`` and answers an opaque access token.  Every API call
must then carry ``Authorization: Bearer <token>``, which is how the emulator knows *who*
is calling and can enforce sharing and protected ranges per identity.

Keys are generated here too (:func:`generate_service_account`), so tests and local runs
never need real Google credentials.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
TOKEN_LIFETIME = 3599


@dataclass(frozen=True)
class Registration:
    """A public key accepted for an identity."""

    email: str
    key_id: str
    public_key_pem: str

    def to_json(self) -> dict[str, str]:
        """Serialise (also the body of ``POST /_emulator/identities``)."""
        return {"email": self.email, "key_id": self.key_id, "public_key_pem": self.public_key_pem}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Registration:
        """Inverse of :meth:`to_json`."""
        return cls(str(data["email"]), str(data.get("key_id", "")), str(data["public_key_pem"]))


class TokenError(Exception):
    """A refused token request, answered as ``{"error", "error_description"}`` with 400."""

    def __init__(self, error: str, description: str) -> None:
        super().__init__(description)
        self.error = error
        self.description = description


def generate_service_account(
    identity: str, base_url: str, *, project_id: str = "strategos-emulator"
) -> tuple[dict[str, Any], Registration]:
    """Create a service-account key file (as a dict) and the registration for its public key."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public_pem = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    key_id = secrets.token_hex(20)
    client_id = str(int(hashlib.sha256(identity.encode()).hexdigest()[:16], 16)).rjust(21, "1")[:21]
    base = base_url.rstrip("/")
    info = {
        "type": "service_account",
        "project_id": project_id,
        "private_key_id": key_id,
        "private_key": private_pem,
        "client_email": identity,
        "client_id": client_id,
        "auth_uri": f"{base}/o/oauth2/auth",
        "token_uri": f"{base}/token",
        "auth_provider_x509_cert_url": f"{base}/oauth2/v1/certs",
        "client_x509_cert_url": f"{base}/robot/v1/metadata/x509/{identity}",
        "universe_domain": "googleapis.com",
    }
    return info, Registration(identity, key_id, public_pem)


def _b64url_decode(part: str) -> bytes:
    """Base64url without padding, as used in JWTs."""
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def verify_assertion(assertion: str, registrations: list[Registration], now: float | None = None) -> dict[str, Any]:
    """Check a JWT-bearer assertion; returns its claims or raises :class:`TokenError`."""
    try:
        head_b64, body_b64, sig_b64 = assertion.split(".")
        header = json.loads(_b64url_decode(head_b64))
        claims = json.loads(_b64url_decode(body_b64))
        signature = _b64url_decode(sig_b64)
    except (ValueError, json.JSONDecodeError):
        raise TokenError("invalid_grant", "Invalid JWT: malformed assertion.") from None
    if header.get("alg") != "RS256":
        raise TokenError("invalid_grant", "Invalid JWT: only RS256 is supported.")
    issuer = str(claims.get("iss", ""))
    candidates = [r for r in registrations if r.email.casefold() == issuer.casefold()]
    if not candidates:
        raise TokenError("invalid_grant", "Invalid grant: account not found")
    kid = header.get("kid")
    if kid:
        with_kid = [r for r in candidates if r.key_id == kid]
        candidates = with_kid or candidates
    signing_input = f"{head_b64}.{body_b64}".encode()
    for reg in candidates:
        public_key = serialization.load_pem_public_key(reg.public_key_pem.encode())
        if not isinstance(public_key, rsa.RSAPublicKey):
            continue
        try:
            public_key.verify(signature, signing_input, padding.PKCS1v15(), hashes.SHA256())
        except InvalidSignature:
            continue
        break
    else:
        raise TokenError("invalid_grant", "Invalid JWT Signature.")
    current = time.time() if now is None else now
    exp = claims.get("exp")
    iat = claims.get("iat")
    if not isinstance(exp, (int, float)) or not isinstance(iat, (int, float)):
        raise TokenError("invalid_grant", "Invalid JWT: missing iat or exp.")
    if current > exp + 300 or iat > current + 300 or exp - iat > 3600 + 300:
        raise TokenError(
            "invalid_grant",
            "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. "
            "Check your iat and exp values in the JWT claim.",
        )
    return dict(claims)


def new_access_token() -> str:
    """An opaque bearer token, shaped like Google's."""
    return "ya29.emu-" + secrets.token_urlsafe(32)
